package reports

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// styleFactionChart gives the workbook's faction chart what excelize cannot
// write: each faction's bar in its own colour (c:dPt) and the 95% intervals
// as error bars (c:errBars with the amounts below and above each bar). It
// rewrites xl/charts/chart1.xml in the finished workbook; without a chart
// the workbook is returned as it is.
func (m *model) styleFactionChart(xlsx []byte) ([]byte, error) {
	if len(m.factions) == 0 {
		return xlsx, nil
	}
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		if f.Name == "xl/charts/chart1.xml" {
			if data, err = m.factionChartXML(data); err != nil {
				return nil, err
			}
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: f.Modified})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// factionChartXML inserts the data-point colours and the error bars into
// the bar series (the first ser of the barChart). excelize writes the chart
// namespace as the default one (no "c:" prefix) and the series' dLbls before
// invertIfNegative; the series is put into the order CT_BarSer requires:
// tx, invertIfNegative, dPt…, dLbls, errBars, cat, val.
func (m *model) factionChartXML(x []byte) ([]byte, error) {
	s := string(x)
	bar := strings.Index(s, "<barChart>")
	if bar < 0 {
		return nil, fmt.Errorf("reports: the faction chart has no bar chart")
	}
	start := strings.Index(s[bar:], "<ser>")
	end := strings.Index(s[bar:], "</ser>")
	if start < 0 || end < start {
		return nil, fmt.Errorf("reports: the faction chart has no series")
	}
	start, end = bar+start, bar+end
	ser := s[start:end]
	const inv = `<invertIfNegative val="0"></invertIfNegative>`
	ser = strings.Replace(ser, inv, "", 1)
	dl := strings.Index(ser, "<dLbls>")
	cat := strings.Index(ser, "<cat>")
	if cat < 0 {
		return nil, fmt.Errorf("reports: the faction chart's series has no categories")
	}
	if dl < 0 || dl > cat {
		dl = cat
	}
	var dpt strings.Builder
	for i, f := range m.factions {
		fmt.Fprintf(&dpt, `<dPt><idx val="%d"/><invertIfNegative val="0"/><bubble3D val="0"/><spPr><a:solidFill><a:srgbClr val="%s"/></a:solidFill></spPr></dPt>`,
			i, strings.ToUpper(strings.TrimPrefix(f.Color, "#")))
	}
	// The error bars read the table's "interval below" and "interval
	// above" columns (I and J), so they stay beside the figures they draw.
	ref := func(col string) string {
		return fmt.Sprintf(`<numRef><f>'%s'!$%s$2:$%s$%d</f></numRef>`, m.say(SheetFactions), col, col, m.chartRows)
	}
	errBars := `<errBars><errDir val="y"/><errBarType val="both"/><errValType val="cust"/><noEndCap val="0"/>` +
		`<plus>` + ref("J") + `</plus><minus>` + ref("I") + `</minus>` +
		`<spPr><a:ln w="15875"><a:solidFill><a:srgbClr val="222222"/></a:solidFill></a:ln></spPr></errBars>`
	ser = ser[:dl] + inv + dpt.String() + ser[dl:cat] + errBars + ser[cat:]
	return []byte(s[:start] + ser + s[end:]), nil
}
