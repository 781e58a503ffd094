package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"
)

// fifoWait bounds the wait for a FIFO's reader when the FIFO is opened (at
// Check or Create, before any work): opening a FIFO for writing otherwise
// waits for a reader without limit.
var fifoWait = 10 * time.Second

var (
	heldMu sync.Mutex
	// held are the FIFOs Check opened, by device and inode, for Create to
	// take: closing them would tell their reader the output ended.
	held = map[[2]uint64]*os.File{}
)

func fileID(st fs.FileInfo) ([2]uint64, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return [2]uint64{uint64(s.Dev), uint64(s.Ino)}, true
	}
	return [2]uint64{}, false
}

// openThrough opens a written-through output: a FIFO without blocking,
// waiting at most fifoWait for its reader (then it is refused), so that
// neither the open nor a later Ctrl-C can hang on it; a device or a
// descriptor path as it is, appending (it may name a regular file that
// already holds output).
func openThrough(path, name string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, pathErr(err))
	}
	if st.Mode()&fs.ModeNamedPipe == 0 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, pathErr(err))
		}
		return f, nil
	}
	id, ok := fileID(st)
	if ok {
		heldMu.Lock()
		f := held[id]
		delete(held, id)
		heldMu.Unlock()
		if f != nil {
			return f, nil
		}
	}
	deadline := time.Now().Add(fifoWait)
	for {
		// O_NONBLOCK: ENXIO at once when nobody reads. The file is then
		// in Go's poller, so a full pipe parks a goroutine, not a thread.
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.ENXIO) {
			return nil, fmt.Errorf("%s: %v", name, pathErr(err))
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s is a FIFO that nobody reads (waited %v): start its reader first", name, fifoWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkFIFO opens the FIFO path for Check and keeps it for Create.
func checkFIFO(path, name string) error {
	f, err := openThrough(path, name)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	id, ok := fileID(st)
	if err != nil || !ok {
		f.Close()
		return nil
	}
	heldMu.Lock()
	if old := held[id]; old != nil {
		old.Close()
	}
	held[id] = f
	heldMu.Unlock()
	return nil
}

// --- writes that may block -------------------------------------------------------

var (
	stuckMu sync.Mutex
	// inFlight holds the writes to standard output, devices and FIFOs
	// under way, by output, with their start: a reader that stopped
	// reading blocks them.
	inFlight = map[*tracked]time.Time{}
)

// tracked is a written-through output whose writes are timed (Stuck).
type tracked struct {
	w    io.Writer
	name string
}

func (t *tracked) Write(p []byte) (int, error) {
	stuckMu.Lock()
	inFlight[t] = time.Now()
	stuckMu.Unlock()
	n, err := t.w.Write(p)
	stuckMu.Lock()
	delete(inFlight, t)
	stuckMu.Unlock()
	return n, err
}

// Stuck returns the output (standard output, a device or a FIFO) whose
// write has been waiting longest, and for how long; a process stopping on
// Ctrl-C gives up on it rather than wait for a reader that may never come.
func Stuck() (name string, d time.Duration) {
	stuckMu.Lock()
	defer stuckMu.Unlock()
	for t, start := range inFlight {
		if s := time.Since(start); s > d {
			name, d = t.name, s
		}
	}
	return name, d
}
