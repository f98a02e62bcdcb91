//go:build !notools

package main

// analyzeTruth is analyze --truth (analyze_truth.go); the release build
// has none (tools_off.go).
var analyzeTruth = cmdAnalyzeTruth
