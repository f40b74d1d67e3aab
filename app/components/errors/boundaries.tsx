import { Component, type ErrorInfo, type ReactNode } from "react";
import { ApplicationErrorScreen, errorMessage, GenericErrorScreen } from "./error-screens.tsx";

interface BoundaryState {
  error: unknown;
  hasError: boolean;
}

/** Catches render errors in the page area; resets when `resetKey` (the location) changes. */
export class RouteErrorBoundary extends Component<{ resetKey: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error, hasError: true };
  }

  override componentDidUpdate(prev: { resetKey: string }) {
    if (this.state.hasError && prev.resetKey !== this.props.resetKey)
      this.setState({ error: null, hasError: false });
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error("Page render failed", error, info.componentStack);
  }

  override render() {
    if (this.state.hasError) {
      return (
        <GenericErrorScreen
          message={errorMessage(this.state.error)}
          onRetry={() => this.setState({ error: null, hasError: false })}
        />
      );
    }
    return this.props.children;
  }
}

/** Catches failures of the application shell itself (sidebar, providers): the 'Application Error' screen. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error("Application shell failed", error, info.componentStack);
  }

  override render() {
    if (this.state.hasError) {
      return (
        <ApplicationErrorScreen
          error={this.state.error}
          onRetry={() => this.setState({ error: null, hasError: false })}
        />
      );
    }
    return this.props.children;
  }
}
