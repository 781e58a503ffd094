//go:build unix

package printing

import (
	"io/fs"
	"os"
	"syscall"
)

// otherOwner reports whether the file belongs to another user.
func otherOwner(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) != os.Getuid()
}
