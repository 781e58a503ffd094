//go:build unix

package files

import (
	"io/fs"
	"os"
	"syscall"
)

// umask reads the process's umask (setting it back at once).
func umask() fs.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return fs.FileMode(m)
}

// syscallAccessW reports whether the process may write to path.
func syscallAccessW(path string) error { return syscall.Access(path, 2) } // W_OK

// flock takes (non-blocking) or drops an exclusive lock on f.
func flock(f *os.File, lock bool) error {
	how := syscall.LOCK_UN
	if lock {
		how = syscall.LOCK_EX | syscall.LOCK_NB
	}
	return syscall.Flock(int(f.Fd()), how)
}
