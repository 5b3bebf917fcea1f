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
