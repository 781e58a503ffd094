//go:build unix

package files

import (
	"io/fs"
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
