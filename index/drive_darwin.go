package index

import "golang.org/x/sys/unix"

// volumeOf reads the file system type of a path (statfs: smbfs, nfs,
// afpfs, webdav, macfuse, …).
func volumeOf(path string) volume {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return volume{}
	}
	return volume{Where: path, Kind: "fixed", FS: unix.ByteSliceToString(st.Fstypename[:])}
}
