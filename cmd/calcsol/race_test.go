//go:build race

package main

// raceDetector is true when the tests run under the race detector.
const raceDetector = true
