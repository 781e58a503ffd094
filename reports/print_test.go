package reports

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every sheet prints: a print area over its table, the header row repeated
// on every page (and the name column when a sheet spreads over pages
// across), A4 fitted to the width, landscape where the columns are wide;
// the Summary states the tolerance band in points (issue 25, item 13).
func TestWorkbookPrintSetup(t *testing.T) {
	var b bytes.Buffer
	if err := WriteXLSX(&b, fixtureData(true), Options{Now: testNow, Tolerance: 0.03}); err != nil {
		t.Fatal(err)
	}
	f := openBook(t, b.Bytes())
	areas, titles := map[string]string{}, map[string]string{}
	for _, dn := range f.GetDefinedName() {
		switch dn.Name {
		case "_xlnm.Print_Area":
			areas[dn.Scope] = dn.RefersTo
		case "_xlnm.Print_Titles":
			titles[dn.Scope] = dn.RefersTo
		}
	}
	for _, sh := range f.GetSheetList() {
		rows, _ := f.GetRows(sh)
		ncols := 0
		width := 0.0
		for _, r := range rows {
			ncols = max(ncols, len(r))
		}
		for c := 1; c <= ncols; c++ {
			w, _ := f.GetColWidth(sh, colName(c))
			width += w
		}
		if !strings.Contains(areas[sh], "$A$1:$"+colName(ncols)+"$") {
			t.Errorf("%s: print area %q, want A1 to column %s", sh, areas[sh], colName(ncols))
		}
		if !strings.HasSuffix(titles[sh], "!$1:$1") {
			t.Errorf("%s: print titles %q, want the header row", sh, titles[sh])
		}
		pl, err := f.GetPageLayout(sh)
		if err != nil {
			t.Fatal(err)
		}
		if pl.Size == nil || *pl.Size != 9 || pl.FitToWidth == nil || pl.FitToHeight == nil || *pl.FitToHeight != 0 || pl.Orientation == nil {
			t.Errorf("%s: page layout %+v, want A4 fitted to the width", sh, pl)
			continue
		}
		if wide := width > pagePortrait; wide != (*pl.Orientation == "landscape") {
			t.Errorf("%s: %.0f characters wide printed %s", sh, width, *pl.Orientation)
		}
		if *pl.FitToWidth > 1 && !strings.Contains(titles[sh], "$A:$A") {
			t.Errorf("%s: %d pages across without the first column repeated: %q", sh, *pl.FitToWidth, titles[sh])
		}
		props, _ := f.GetSheetProps(sh)
		if props.FitToPage == nil || !*props.FitToPage {
			t.Errorf("%s: fit to page is off", sh)
		}
	}
	if pl, _ := f.GetPageLayout(SheetCards); pl.Orientation == nil || *pl.Orientation != "landscape" {
		t.Error("the Cards sheet does not print landscape")
	}
	rows, _ := f.GetRows(SheetSummary)
	found := false
	for _, r := range rows {
		if len(r) > 1 && strings.HasPrefix(r[0], "Tolerance band") {
			found = true
			if r[1] != "±3 points" {
				t.Errorf("Summary: %q = %q, want ±3 points", r[0], r[1])
			}
		}
	}
	if !found {
		t.Error("the Summary has no tolerance band")
	}
}

// The workbook exported to PDF by LibreOffice (when installed): the
// fixture took 62 pages without a print setup, 25 with it.
func TestWorkbookPDFPages(t *testing.T) {
	soffice, err := exec.LookPath("soffice")
	if err != nil || testing.Short() {
		t.Skip("no LibreOffice (soffice) or -short")
	}
	pdfinfo, err := exec.LookPath("pdfinfo")
	if err != nil {
		t.Skip("no pdfinfo (poppler-utils)")
	}
	dir := t.TempDir()
	var b bytes.Buffer
	if err := WriteXLSX(&b, fixtureData(true), Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	xlsx := filepath.Join(dir, "balance.xlsx")
	if err := os.WriteFile(xlsx, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(soffice, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--convert-to", "pdf", "--outdir", dir, xlsx)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	out, err := exec.Command(pdfinfo, filepath.Join(dir, "balance.pdf")).Output()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Pages:\s+(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("pdfinfo: %s", out)
	}
	pages, _ := strconv.Atoi(string(m[1]))
	t.Logf("balance.xlsx exported to %d PDF pages", pages)
	if pages > 32 {
		t.Errorf("the workbook prints on %d pages", pages)
	}
}
