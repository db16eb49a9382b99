//! The conformance runner.
