package printing

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/cardlab/cardlab/files"
)

// outFile is one output: its path under --out (slash-separated) and how to
// render it.
type outFile struct {
	name   string
	render func(io.Writer) error
}

// checkDir makes sure that writing files into dir replaces nothing but
// earlier outputs (files.CheckDir: dir is a folder or absent, every file to
// be replaced a regular file of ours — never a folder, link, device, FIFO
// or another user's file). It runs before anything is drawn, so a mistaken
// --out fails at once.
func checkDir(dir string, outs []outFile) error {
	if err := files.CheckDir(dir, names(outs)); err != nil {
		return fmt.Errorf("printing: %w", err)
	}
	return nil
}

func names(outs []outFile) []string {
	n := make([]string, len(outs))
	for i, f := range outs {
		n[i] = f.name
	}
	sort.Strings(n)
	return n
}

// writeDir renders the files into a temporary folder and puts them in
// place as a whole through files.ReplaceDir, the report's writer: dir ends
// up with all the new files or, if anything fails, exactly what it held
// (other files in it are left alone).
func writeDir(dir string, outs []outFile, progress func(done, total int, name string)) error {
	err := files.ReplaceDir(dir, names(outs), func(tmp string) error { return renderAll(tmp, outs, progress) })
	if err != nil && !strings.HasPrefix(err.Error(), "printing:") {
		err = fmt.Errorf("printing: %w", err)
	}
	return err
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

// writeFile renders one output (files.Render). A panic while drawing (a
// font file that parses but has broken glyphs) becomes an error.
func writeFile(path string, render func(io.Writer) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error while drawing (please report this bug): %v", r)
		}
	}()
	return files.Render(path, render)
}
