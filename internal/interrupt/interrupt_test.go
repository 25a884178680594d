package interrupt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"
)

// SIGTERM cancels the context; the run's error then counts as interrupted.
func TestSignalCancels(t *testing.T) {
	ctx, stop := Context(context.Background())
	defer stop()
	if Interrupted(ctx, context.Canceled) {
		t.Fatal("interrupted before any signal")
	}
	syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not cancel the context")
	}
	if !Interrupted(ctx, fmt.Errorf("writing: %w", ctx.Err())) {
		t.Error("a wrapped cancellation is not reported as interrupted")
	}
	if Interrupted(ctx, errors.New("disk full")) {
		t.Error("another error is reported as interrupted")
	}
}

// SIGHUP (a closed terminal) stops a run as SIGTERM does, rather than
// killing the program with its temporary files and plugin processes left.
func TestHangupCancels(t *testing.T) {
	if !Watches(syscall.SIGHUP) {
		t.Skip("SIGHUP is ignored here (nohup): runs outlive the terminal")
	}
	ctx, stop := Context(context.Background())
	defer stop()
	syscall.Kill(syscall.Getpid(), syscall.SIGHUP)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGHUP did not cancel the context")
	}
}

// A Context is watched from when it is made until its caller stops it, the
// signal that cancelled it notwithstanding; stopping twice counts once.
func TestWatched(t *testing.T) {
	if Watched() {
		t.Fatal("watched before any Context")
	}
	ctx, stop := Context(context.Background())
	if !Watched() {
		t.Error("not watched with a Context in use")
	}
	syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	<-ctx.Done()
	time.Sleep(10 * time.Millisecond) // the Context's own release of the signal
	if !Watched() {
		t.Error("not watched after the signal, before the caller stopped the Context")
	}
	stop()
	stop()
	if Watched() {
		t.Error("still watched after stop")
	}
	_, stop2 := Context(context.Background())
	if !Watched() {
		t.Error("a second Context is not watched")
	}
	stop2()
	if Watched() {
		t.Error("watched after both were stopped")
	}
}

// A command's own Context inside the program's: once the inner one is
// cancelled by a signal, Received already says so, though the outer one
// may not be cancelled yet, and the cause names the signal and is a
// context.Canceled. Stopping the last Context forgets the signal.
func TestNestedReceived(t *testing.T) {
	outer, stopOuter := Context(context.Background())
	inner, stopInner := Context(outer)
	if Received() {
		t.Fatal("Received before any signal")
	}
	syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	select {
	case <-inner.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not cancel the inner context")
	}
	if !Received() {
		t.Error("the inner context is cancelled, and Received is false")
	}
	var se *SignalError
	if cause := context.Cause(inner); !errors.As(cause, &se) || se.Signal != syscall.SIGTERM || !errors.Is(cause, context.Canceled) {
		t.Errorf("cause %v: want the SIGTERM, as a context.Canceled", cause)
	}
	if !Interrupted(inner, context.Cause(inner)) {
		t.Error("the cause is not reported as interrupted")
	}
	late, stopLate := Context(context.Background())
	if late.Err() == nil {
		t.Error("a Context made after the signal is not cancelled")
	}
	stopLate()
	stopInner()
	if !Received() {
		t.Error("forgotten while the outer Context is in use")
	}
	stopOuter()
	if Received() {
		t.Error("still Received after the last Context stopped")
	}
}

// SIGHUP stops a run unless the program started with it ignored (nohup);
// SIGINT and SIGTERM always do.
func TestStopSignals(t *testing.T) {
	for _, tc := range []struct {
		ignored bool
		want    []os.Signal
	}{
		{false, []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}},
		{true, []os.Signal{os.Interrupt, syscall.SIGTERM}},
	} {
		if got := stopSignals(tc.ignored); !slices.Equal(got, tc.want) {
			t.Errorf("SIGHUP ignored %v: %v, want %v", tc.ignored, got, tc.want)
		}
	}
}
