package main

import (
	"errors"
	"math"
	"strconv"

	"github.com/spf13/pflag"
)

// finiteFloat is the value of every float flag: a number that parses and is
// finite. NaN compares false with everything, so a range check written as
// `x < lo || x > hi` lets it through; ±Inf and overflowing numbers
// (1e309) pass one-sided checks. Refusing them where the flag is parsed
// keeps every range check honest (TestFloatFlagsRefuseNonFinite walks
// every command so that no float flag is declared another way).
type finiteFloat float64

// errNotFinite is the reason given for NaN, ±Inf and numbers beyond a
// float64 (flagError rewords it with the flag's name).
var errNotFinite = errors.New("not a finite number")

func (f *finiteFloat) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return err
	}
	// ErrRange: beyond ±MaxFloat64 it is ±Inf; below the smallest
	// subnormal it is 0, which range checks see as it is.
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return errNotFinite
	}
	*f = finiteFloat(v)
	return nil
}

func (f *finiteFloat) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

// Type names the value in pflag's help like Float64Var's.
func (f *finiteFloat) Type() string { return "float64" }

// floatVar declares a float flag that refuses NaN and ±Inf (exit 2).
func floatVar(fl *pflag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fl.Var((*finiteFloat)(p), name, usage)
}
