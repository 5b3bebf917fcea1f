package atomicdir

import (
	"os"
	"syscall"
)

// fileStamp is the stamp of a file's status (EntriesFile).
func fileStamp(info os.FileInfo) stamp {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return stamp{}
	}
	return stamp{Ino: st.Ino, MTime: st.Mtim.Nano(), CTime: st.Ctim.Nano()}
}

// tmpfsMagic is the file-system type statfs(2) gives for tmpfs
// (TMPFS_MAGIC, linux/magic.h).
const tmpfsMagic = 0x01021994

// stampFollowsContent reports whether every change of the content of the
// file at p changes its stamp, so that an unchanged stamp may stand for
// unchanged content. Not on tmpfs (/dev/shm, and /tmp on many systems): a
// write through a shared memory mapping (mmap) sets neither time there,
// tmpfs having no hook for the first write to a mapped page, where other
// file systems (ext4, xfs, btrfs, ramfs, …) set both. (An overlay whose
// upper layer is tmpfs has the same gap; statfs names only the overlay,
// and its upper layer is often out of this process's sight.)
func stampFollowsContent(p string) bool {
	var fs syscall.Statfs_t
	return syscall.Statfs(p, &fs) == nil && fs.Type != tmpfsMagic
}
