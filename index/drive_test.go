package index

import (
	"context"
	"lwr/config/configtest"
	"strings"
	"testing"
	"time"
)

func TestPollReason(t *testing.T) {
	tests := []struct {
		name string
		v    volume
		want string // in the reason; "" = events are trusted
	}{
		{name: "local NTFS", v: volume{Kind: "fixed", FS: "NTFS", Label: "Windows", Where: `C:\`}},
		{name: "Google Drive for desktop", v: volume{Kind: "fixed", FS: "FAT32", Label: "Google Drive", Where: `G:\`}, want: `G:\ is Google Drive for desktop`},
		{name: "DriveFS by name", v: volume{Kind: "fixed", FS: "DriveFS", Where: `G:\`}, want: "Google Drive for desktop"},
		{name: "mapped network drive", v: volume{Kind: "remote", FS: "NTFS", Where: `Z:\`}, want: `Z:\ is a network drive`},
		{name: "UNC share", v: volume{Kind: "remote", Where: `\\server\share\`}, want: "network drive"},
		{name: "USB stick", v: volume{Kind: "removable", FS: "exFAT", Where: `E:\`}},
		{name: "Linux NFS", v: volume{Kind: "fixed", FS: "nfs", Where: "/mnt/docs"}, want: "/mnt/docs is on nfs"},
		{name: "Linux FUSE", v: volume{Kind: "fixed", FS: "fuse", Where: "/home/u/gdrive"}, want: "network or virtual file system"},
		{name: "WSL drive", v: volume{Kind: "fixed", FS: "9p", Where: "/mnt/c"}, want: "9p"},
		{name: "macOS SMB", v: volume{Kind: "fixed", FS: "smbfs", Where: "/Volumes/share"}, want: "smbfs"},
		{name: "macOS APFS", v: volume{Kind: "fixed", FS: "apfs", Where: "/Users/u"}},
		{name: "ext4", v: volume{Kind: "fixed", FS: "0xef53", Where: "/home/u"}},
		{name: "unknown", v: volume{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := pollReason(tt.v)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("pollReason(%+v) = %q, want %q", tt.v, got, tt.want)
			}
		})
	}
}

// A root on a drive without trustworthy notifications is polled, and the
// watch says why.
func TestWatchPollsARemoteDrive(t *testing.T) {
	root := tree(t, baseTree)
	ix := openTest(t, root, configtest.TempDir(t))
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- ix.Watch(ctx, WatchOptions{RemotePoll: time.Hour, volume: func(string) volume {
			return volume{Kind: "fixed", FS: "FAT32", Label: "Google Drive", Where: `G:\`}
		}})
	}()
	for ix.WatchState().Mode != "poll" {
		select {
		case err := <-done:
			t.Fatalf("watch ended: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	st := ix.WatchState()
	stop()
	<-done
	if !strings.Contains(st.Why, "Google Drive for desktop") || st.Every != time.Hour {
		t.Errorf("watch state %+v", st)
	}
}
