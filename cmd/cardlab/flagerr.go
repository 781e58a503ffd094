package main

import (
	"errors"
	"fmt"
	"regexp"
)

// pflagParse matches pflag's error for a value that does not parse:
// `invalid argument "abc" for "--games" flag: strconv.ParseInt: parsing "abc": invalid syntax`.
var pflagParse = regexp.MustCompile(`^invalid argument (".*") for "(.+?)" flag: strconv\.Parse(Int|Uint|Float|Bool): parsing ".*": (invalid syntax|value out of range)$`)

// pflagNotFinite matches pflag's error for NaN or ±Inf given to a float
// flag (finiteFloat).
var pflagNotFinite = regexp.MustCompile(`^invalid argument (".*") for "(.+?)" flag: ` + errNotFinite.Error() + `$`)

// flagError rewords pflag's parse errors for people: the flag, the value
// and what it must be, never Go's strconv wording. Other errors pass as
// they are.
func flagError(err error) error {
	if sm := pflagNotFinite.FindStringSubmatch(err.Error()); sm != nil {
		return errors.New(sm[2] + " must be a finite number, got " + sm[1])
	}
	sm := pflagParse.FindStringSubmatch(err.Error())
	if sm == nil {
		return err
	}
	val, flag, kind, why := sm[1], sm[2], sm[3], sm[4]
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number of 0 or more", "Float": "a number",
		"Bool": "true or false"}[kind]
	if why == "value out of range" {
		return fmt.Errorf("%s %s is out of range: it must be %s a computer word can hold", flag, val, want)
	}
	return errors.New(flag + " must be " + want + ", got " + val)
}
