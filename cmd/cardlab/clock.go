package main

import (
	"os"
	"strconv"
	"time"
)

// reportTime is the time a report states — when its games were played and
// when it was rendered: now, or SOURCE_DATE_EPOCH (seconds since 1970,
// the reproducible-builds convention) when it is set to one, so that two
// runs of one report — a sharded one merged and the unsharded one — can be
// compared file by file (.ci/run does). It never changes a figure.
func reportTime() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if sec, err := strconv.ParseInt(s, 10, 64); err == nil && sec >= 0 && sec < 1<<40 {
			return time.Unix(sec, 0).UTC()
		}
	}
	return time.Now().UTC()
}
