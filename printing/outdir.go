package printing

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
)

// outFile is one output: its path under --out (slash-separated) and how to
// render it.
type outFile struct {
	name   string
	render func(io.Writer) error
}

// checkDir makes sure that writing files into dir replaces nothing but
// earlier outputs: dir is a directory or absent, and every file to be
// replaced is a regular file of ours — never a directory, link, device,
// FIFO or another user's file. It runs before anything is drawn, so a
// mistaken --out fails at once.
func checkDir(dir string, files []outFile) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("printing: --out %s: %v", dir, unwrapPath(err))
	case !st.IsDir():
		return fmt.Errorf("printing: --out %s exists and is not a directory", dir)
	}
	seenDir := map[string]bool{}
	for _, f := range files {
		// The folders on the way must be folders.
		for d := filepath.Dir(filepath.FromSlash(f.name)); d != "." && !seenDir[d]; d = filepath.Dir(d) {
			seenDir[d] = true
			p := filepath.Join(dir, d)
			if info, err := os.Lstat(p); err == nil && !info.IsDir() {
				return fmt.Errorf("printing: %s is in the way: it should be a folder of cardlab's output", p)
			}
		}
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := replaceable(p); err != nil {
			return err
		}
	}
	return nil
}

// replaceable reports why p must not be replaced, if it must not.
func replaceable(p string) error {
	info, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("printing: %s: %v", p, unwrapPath(err))
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("printing: not replacing %s: it is not a regular file (%s)", p, describeMode(info.Mode()))
	}
	if otherOwner(info) {
		return fmt.Errorf("printing: not replacing %s: it belongs to another user", p)
	}
	return nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

// writeDir renders files into a temporary directory beside dir and moves
// them into place only when every one is complete, so a failure leaves dir
// as it was: a new dir is renamed into place whole; into an existing one
// (which may hold other files, left alone) each file is renamed over its
// old version. This is reports.Write's protocol, for a file list that
// depends on the cards.
func writeDir(dir string, files []outFile, progress func(done, total int, name string)) error {
	dir = filepath.Clean(dir)
	exists := false
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		exists = true
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("printing: %v", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-*")
	if err != nil {
		return fmt.Errorf("printing: %v", err)
	}
	defer os.RemoveAll(tmp)
	if err := renderAll(tmp, files, progress); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("printing: %v", err)
	}
	if !exists {
		if err := os.Rename(tmp, dir); err == nil {
			return nil
		}
		// dir appeared meanwhile: fall through and replace file by file.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("printing: %v", err)
		}
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.name
	}
	sort.Strings(names)
	for _, name := range names {
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("printing: %v", err)
		}
		// Checked again at the last moment: a file may have appeared.
		if err := replaceable(dst); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(tmp, filepath.FromSlash(name)), dst); err != nil {
			return fmt.Errorf("printing: %v", err)
		}
	}
	return nil
}

// renderAll renders files into tmp, on every core: the drawings are
// shared read-only, and each file is independent of the others, so the
// bytes do not depend on the order.
func renderAll(tmp string, files []outFile, progress func(done, total int, name string)) error {
	for _, f := range files {
		if err := os.MkdirAll(filepath.Join(tmp, filepath.Dir(filepath.FromSlash(f.name))), 0o755); err != nil {
			return fmt.Errorf("printing: %v", err)
		}
	}
	var (
		mu    sync.Mutex
		next  int
		done  int
		first error
	)
	work := func() {
		for {
			mu.Lock()
			if first != nil || next == len(files) {
				mu.Unlock()
				return
			}
			f := files[next]
			next++
			mu.Unlock()
			err := writeFile(filepath.Join(tmp, filepath.FromSlash(f.name)), f.render)
			mu.Lock()
			if err != nil && first == nil {
				first = fmt.Errorf("printing: rendering %s: %w", f.name, err)
			}
			done++
			if err == nil && progress != nil {
				progress(done, len(files), f.name)
			}
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func() { defer wg.Done(); work() }()
	}
	wg.Wait()
	return first
}

// writeFile creates path and renders into it. A panic while drawing (a
// font file that parses but has broken glyphs) becomes an error.
func writeFile(path string, render func(io.Writer) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error while drawing (please report this bug): %v", r)
		}
	}()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := render(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
