package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"

	"lwr/index"
)

// On Windows the daemon listens on loopback TCP, on a port the system
// chooses, and every request must carry a random token. Both are written
// to daemon.addr in the index folder, a file only the current user may
// read (an owner-only security descriptor, in the user's own profile).
const addrName = "daemon.addr"

// listen opens the daemon's loopback port and writes its address and
// token for clients; cleanup removes the file.
func listen(dir string) (ln net.Listener, cleanup func(), token string, err error) {
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, nil, "", fmt.Errorf("make the daemon's token: %w", err)
	}
	token = hex.EncodeToString(secret)
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, "", fmt.Errorf("listen on loopback: %w", err)
	}
	p := filepath.Join(dir, addrName)
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, []byte(ln.Addr().String()+" "+token+"\n"), 0o600); err != nil {
		ln.Close()
		return nil, nil, "", fmt.Errorf("write %s: %w", p, err)
	}
	if err := ownerOnly(tmp); err != nil {
		os.Remove(tmp)
		ln.Close()
		return nil, nil, "", fmt.Errorf("restrict %s to this user: %w", p, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		ln.Close()
		return nil, nil, "", fmt.Errorf("write %s: %w", p, err)
	}
	return ln, func() { os.Remove(p) }, token, nil
}

// ownerOnly gives a file a protected DACL that grants the current user
// alone full access.
func ownerOnly(p string) error {
	tok := windows.GetCurrentProcessToken()
	u, err := tok.GetTokenUser()
	if err != nil {
		return err
	}
	sd, err := windows.SecurityDescriptorFromString("D:P(A;;FA;;;" + u.User.Sid.String() + ")")
	if err != nil {
		return err
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return err
	}
	return windows.SetNamedSecurityInfo(p, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil)
}

// endpoint returns the daemon's address and token, or ErrNoDaemon when no
// daemon holds the index (a file left by a killed daemon is ignored).
func endpoint(dir string) (addr, token string, err error) {
	b, err := os.ReadFile(filepath.Join(dir, addrName))
	if errors.Is(err, os.ErrNotExist) {
		return "", "", ErrNoDaemon
	}
	if err != nil {
		return "", "", fmt.Errorf("read the daemon's address in %s: %w", dir, err)
	}
	if h, held := index.LockHolder(dir); !held || !h.Daemon() {
		return "", "", ErrNoDaemon
	}
	addr, token, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	if !ok || addr == "" || token == "" {
		return "", "", ErrNoDaemon
	}
	return addr, token, nil
}

// dial connects to the daemon; a refused connection is ErrNoDaemon.
func dial(ctx context.Context, addr string, d net.Dialer) (net.Conn, error) {
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		if errors.Is(err, windows.WSAECONNREFUSED) {
			return nil, ErrNoDaemon
		}
		return nil, fmt.Errorf("connect to the daemon at %s: %w", addr, err)
	}
	return conn, nil
}
