//go:build matprofile

package main

import "gocv.io/x/gocv"

func init() { leakCount = func() int { return gocv.MatProfile.Count() } }
