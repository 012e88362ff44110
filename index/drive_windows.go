package index

import (
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// volumeOf asks Windows about the volume of a path: its drive type
// (GetDriveType) and its file system and label (GetVolumeInformation).
func volumeOf(path string) volume {
	root := filepath.VolumeName(path)
	if root == "" {
		return volume{}
	}
	if !strings.HasSuffix(root, `\`) {
		root += `\`
	}
	v := volume{Where: root}
	p, err := windows.UTF16PtrFromString(root)
	if err != nil {
		return v
	}
	switch windows.GetDriveType(p) {
	case windows.DRIVE_FIXED:
		v.Kind = "fixed"
	case windows.DRIVE_REMOTE:
		v.Kind = "remote"
	case windows.DRIVE_REMOVABLE:
		v.Kind = "removable"
	case windows.DRIVE_CDROM:
		v.Kind = "cdrom"
	case windows.DRIVE_RAMDISK:
		v.Kind = "ramdisk"
	}
	if strings.HasPrefix(root, `\\`) {
		v.Kind = "remote" // a UNC share
	}
	label := make([]uint16, windows.MAX_PATH+1)
	fs := make([]uint16, windows.MAX_PATH+1)
	if windows.GetVolumeInformation(p, &label[0], uint32(len(label)), nil, nil, nil, &fs[0], uint32(len(fs))) == nil {
		v.Label, v.FS = windows.UTF16ToString(label), windows.UTF16ToString(fs)
	}
	return v
}
