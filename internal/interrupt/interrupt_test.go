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
