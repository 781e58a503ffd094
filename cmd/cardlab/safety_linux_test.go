package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// The tests of writes blocked on a full pipe (Linux: they read the pipe's
// fill with F_GETPIPE_SZ and FIONREAD).

// stuckFIFO makes a FIFO in dir and opens its read end, which the test
// then never reads: a writer blocks once the pipe is full.
func stuckFIFO(t *testing.T, dir string) (string, *os.File) {
	t.Helper()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return fifo, r
}

// waitFull waits until the pipe read by r is full: its writer is blocked.
func waitFull(t *testing.T, r *os.File) {
	t.Helper()
	sc, err := r.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var size, queued int
		sc.Control(func(fd uintptr) {
			s, _, _ := syscall.Syscall(syscall.SYS_FCNTL, fd, 1032 /* F_GETPIPE_SZ */, 0)
			var n int32
			syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ /* FIONREAD */, uintptr(unsafe.Pointer(&n)))
			size, queued = int(s), int(n)
		})
		if size > 0 && queued >= size {
			return
		}
	}
	t.Fatal("the pipe did not fill within 60 s")
}

// TestInterruptWithStuckOutputQuits: games written to a FIFO whose reader
// stopped reading block the run; one SIGTERM (what `timeout` sends) or
// Ctrl-C still ends it promptly — the stop gives up on the blocked write —
// with status 128+signal and no temporaries left.
func TestInterruptWithStuckOutputQuits(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			fifo, r := stuckFIFO(t, dir)
			p := cardlabProcess(t, "simulate", "--players", "starfleet,klingon", "--bots", "random",
				"--games", "1000000000", "--json", "--out", filepath.Join(dir, "r.json"), "--games-out", fifo)
			waitFull(t, r)
			p.cmd.Process.Signal(sig)
			code, took := p.waitFor(t, 5*time.Second)
			t.Logf("exited %v after %v", took, sig)
			if stderr := p.stderr.String(); code != 128+int(sig) || !strings.Contains(stderr, "is not being read") {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			wantNoTemporaries(t, dir)
		})
	}
}

// TestSecondInterruptQuitsAtOnce: a second Ctrl-C quits at once (status
// 130) and removes our temporaries, whatever the first one's stop is
// doing (here: the result goes to a FIFO that is not read).
func TestSecondInterruptQuitsAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo, r := stuckFIFO(t, dir)
	games := filepath.Join(dir, "g.jsonl")
	p := cardlabProcess(t, "simulate", "--players", "starfleet,klingon", "--bots", "random",
		"--games", "1000000000", "--json", "--out", fifo, "--games-out", games)
	_ = r
	waitForPlay(t, dir)
	p.cmd.Process.Signal(os.Interrupt)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(p.stderr.String(), "interrupted:") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	p.cmd.Process.Signal(os.Interrupt)
	code, took := p.waitFor(t, 2*time.Second)
	t.Logf("exited %v after the second SIGINT", took)
	if stderr := p.stderr.String(); code != 130 || !strings.Contains(stderr, "quitting without writing") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantNoTemporaries(t, dir)
}
