//! Property suites live in tests/; this library holds their shared strategies.
