package interrupt

import (
	"context"
	"errors"
	"fmt"
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
