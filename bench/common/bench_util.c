// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 199309L // clock_gettime under -std=c11
#include "bench_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tread/tread.h"

double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *values, int n) {
    qsort(values, (size_t)n, sizeof(double), compare_doubles);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// ---- CSV ---------------------------------------------------------------------------------------------------

static FILE *csv_file;

bool bench_csv_begin(const char *path) {
    if (path) {
        csv_file = fopen(path, "w");
        if (!csv_file) {
            perror(path);
            return false;
        }
        fprintf(csv_file, "scenario,metric,value,unit\n");
    }
    printf("scenario,metric,value,unit\n");
    return true;
}

void bench_csv_text(const char *scenario, const char *metric, const char *value, const char *unit) {
    printf("%s,%s,%s,%s\n", scenario, metric, value, unit);
    fflush(stdout); // a long run shows its rows as they come, even through a pipe
    if (csv_file) {
        fprintf(csv_file, "%s,%s,%s,%s\n", scenario, metric, value, unit);
        fflush(csv_file);
    }
}

void bench_csv(const char *scenario, const char *metric, double value, const char *unit) {
    char text[32];
    // Counts and byte sizes whole, measurements to 7 significant digits (the clocks are not better than that).
    if (value == (double)(long long)value && value < 1e15 && value > -1e15) snprintf(text, sizeof text, "%lld", (long long)value);
    else snprintf(text, sizeof text, "%.7g", value);
    bench_csv_text(scenario, metric, text, unit);
}

void bench_csv_end(void) {
    if (csv_file) fclose(csv_file);
    csv_file = NULL;
}

// ---- counting allocator --------------------------------------------------------------------------------------

// The free hook is not told the size, so each block carries it in a header; 16 bytes keep the caller's memory
// aligned as malloc's is.
#define HEADER 16u
static size_t live_bytes;

static void *counting_alloc(size_t size, void *context) {
    (void)context;
    unsigned char *block = malloc(size + HEADER);
    if (!block) return NULL;
    *(size_t *)block = size;
    live_bytes += size;
    return block + HEADER;
}

static void counting_free(void *memory, void *context) {
    (void)context;
    if (!memory) return;
    unsigned char *block = (unsigned char *)memory - HEADER;
    live_bytes -= *(size_t *)block;
    free(block);
}

void bench_count_allocations(void) { tread_set_allocator(counting_alloc, counting_free, NULL); }

size_t bench_live_bytes(void) { return live_bytes; }
