package index

import "strings"

// volume is what matters of the volume a source root is on for watching
// it: whether its change notifications can be trusted.
type volume struct {
	// Kind is "fixed", "remote", "removable", "cdrom", "ramdisk" or "".
	Kind string
	// FS is the file system's name: NTFS, FAT32, nfs, cifs, fuseblk, ….
	FS string
	// Label is the volume's name (Windows) or what is mounted (Unix).
	Label string
	// Where names the volume in messages: G:\, //server/share, /mnt/x.
	Where string
}

// remoteFS are file systems whose change notifications do not report
// changes made elsewhere (network file systems), or are not delivered at
// all (FUSE and other virtual file systems).
var remoteFS = []string{"nfs", "smb", "cifs", "afp", "webdav", "9p", "fuse", "sshfs", "drivefs", "davfs", "ceph", "gluster", "lustre", "vboxsf", "vmhgfs", "prl_fs"}

// pollReason says why a source root on v must be polled, "" when file
// system events can be trusted there.
func pollReason(v volume) string {
	fs, label := strings.ToLower(v.FS), strings.ToLower(v.Label)
	where := v.Where
	if where == "" {
		where = "the source root"
	}
	switch {
	case strings.Contains(label, "google drive") || strings.Contains(fs, "drivefs"):
		return where + " is Google Drive for desktop, which reports no changes to watchers"
	case v.Kind == "remote":
		return where + " is a network drive, whose change notifications miss changes made on other machines"
	}
	for _, r := range remoteFS {
		if strings.Contains(fs, r) {
			return where + " is on " + v.FS + ", a network or virtual file system whose change notifications cannot be trusted"
		}
	}
	return ""
}
