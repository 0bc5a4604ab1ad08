// SPDX-License-Identifier: MIT
// What every benchmark program here shares, so that they measure and report alike: a monotonic clock, the median
// of repeats, CSV rows `scenario,metric,value,unit` on stdout (and, when asked, the same rows in a file), and a
// counting allocator that tells how many bytes the library holds.
#ifndef TREAD_BENCH_UTIL_H
#define TREAD_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/// Seconds on CLOCK_MONOTONIC (never stepped by NTP, unlike the wall clock).
double bench_now(void);
/// Median of n values (n >= 1); sorts them in place.
double bench_median(double *values, int n);

/// Start the CSV: print the header on stdout and, when path is not NULL, open path and write it there too.
/// Returns false (and says why on stderr) when the file cannot be opened.
bool bench_csv_begin(const char *path);
/// One row. A whole value is printed whole (counts, bytes), any other with 7 significant digits.
void bench_csv(const char *scenario, const char *metric, double value, const char *unit);
/// One row whose value is text (a hash, a name).
void bench_csv_text(const char *scenario, const char *metric, const char *value, const char *unit);
/// Close the file (if any).
void bench_csv_end(void);

/// Route the library's allocations through a counter (tread_set_allocator); call before creating any world.
void bench_count_allocations(void);
/// Bytes the library holds right now (0 unless bench_count_allocations was called).
size_t bench_live_bytes(void);

#endif
