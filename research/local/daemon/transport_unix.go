//go:build !windows

package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
)

// socketName is the daemon's unix socket in the index folder.
const socketName = "daemon.sock"

// listen opens the daemon's socket in the index folder, owner only. A
// socket left by a killed daemon is removed first: the caller holds the
// index's write lock, so no other daemon can be using it. The returned
// cleanup removes the socket; the token is "" (only the owner can open the
// socket, so requests carry none).
func listen(dir string) (ln net.Listener, cleanup func(), token string, err error) {
	p := filepath.Join(dir, socketName)
	if len(p) >= 104 {
		return nil, nil, "", fmt.Errorf("the socket path %s is too long for a unix socket; set cache_dir to a shorter folder", p)
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, "", fmt.Errorf("remove stale socket %s: %w", p, err)
	}
	old := syscall.Umask(0o177)
	ln, err = net.Listen("unix", p)
	syscall.Umask(old)
	if err != nil {
		return nil, nil, "", fmt.Errorf("listen on %s: %w", p, err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		ln.Close()
		return nil, nil, "", fmt.Errorf("chmod %s: %w", p, err)
	}
	return ln, func() { os.Remove(p) }, "", nil
}

// endpoint returns where the daemon of an index folder listens and the
// token its requests carry, or ErrNoDaemon when nothing is there.
func endpoint(dir string) (addr, token string, err error) {
	p := filepath.Join(dir, socketName)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", "", ErrNoDaemon
		}
		return "", "", fmt.Errorf("look for the daemon's socket %s: %w", p, err)
	}
	return p, "", nil
}

// dial connects to the daemon at an endpoint; a socket nobody listens on
// (left by a killed daemon) is ErrNoDaemon.
func dial(ctx context.Context, addr string, d net.Dialer) (net.Conn, error) {
	conn, err := d.DialContext(ctx, "unix", addr)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) {
			return nil, ErrNoDaemon
		}
		return nil, fmt.Errorf("connect to the daemon at %s: %w", addr, err)
	}
	return conn, nil
}
