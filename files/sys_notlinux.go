//go:build unix && !linux

package files

import (
	"os"
	"syscall"
	"time"
)

// raise sends sig to the process and gives it a moment to be acted on
// (no thread-directed kill here).
func raise(sig syscall.Signal) {
	_ = syscall.Kill(os.Getpid(), sig)
	time.Sleep(time.Second)
}
