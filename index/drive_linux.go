package index

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// Linux file system magic numbers (statfs(2)) of network and virtual
// file systems.
var linuxFS = map[int64]string{
	0x6969: "nfs", 0x517B: "smb", 0xFF534D42: "cifs", 0xFE534D42: "smb2", 0x65735546: "fuse",
	0x01021997: "9p", 0x564C: "ncp", 0x00C36400: "ceph", 0x786F4256: "vboxsf",
}

// volumeOf reads the file system type of a path (statfs).
func volumeOf(path string) volume {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return volume{}
	}
	v := volume{Where: path, Kind: "fixed", FS: fmt.Sprintf("0x%x", uint64(st.Type))}
	if name, ok := linuxFS[int64(st.Type)]; ok {
		v.FS = name
	}
	return v
}
