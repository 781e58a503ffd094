package files

import (
	"os"
	"runtime"
	"syscall"
)

// raise sends sig to the calling thread, so that it is acted on before
// raise returns (sent to the process, another thread could take it while
// this one goes on and exits with status 0).
func raise(sig syscall.Signal) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_ = syscall.Tgkill(os.Getpid(), syscall.Gettid(), sig)
}
