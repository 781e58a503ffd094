package rules

import "testing"

// TestMarkdownEscapesText: free text in cardlab cards --format md stays
// text in a table cell, never markup.
func TestMarkdownEscapesText(t *testing.T) {
	got := mdEscape("a|b *c* <script>\nx & y")
	want := `a\|b \*c\* \<script\> x &amp; y`
	if got != want {
		t.Errorf("mdEscape = %q, want %q", got, want)
	}
}
