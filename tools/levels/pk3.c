// SPDX-License-Identifier: MIT
// A .pk3 is a zip archive; libzip reads it (no zip parsing of our own). Only what the importer needs: one entry
// into memory, and the names of the maps.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "level_internal.h"

// Larger than any Quake III map (the biggest OpenArena ships is under 8 MB): a bigger entry is not a map.
#define PK3_MAX_ENTRY (256u << 20)

static zip_t *open_archive(const char *path, char *err, size_t errsize) {
    int code = 0;
    zip_t *z = zip_open(path, ZIP_RDONLY, &code);
    if (!z) {
        zip_error_t e;
        zip_error_init_with_code(&e, code);
        snprintf(err, errsize, "%s: cannot open as a zip archive: %s", path, zip_error_strerror(&e));
        zip_error_fini(&e);
    }
    return z;
}

bool pk3_read(const char *path, const char *entry, uint8_t **out_data, size_t *out_size, char *err, size_t errsize) {
    *out_data = NULL;
    *out_size = 0;
    zip_t *z = open_archive(path, err, errsize);
    if (!z) return false;
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat(z, entry, ZIP_FL_NOCASE, &st) != 0 || !(st.valid & ZIP_STAT_SIZE)) {
        snprintf(err, errsize, "%s: no entry %s in the archive", path, entry);
        zip_close(z);
        return false;
    }
    if (st.size > PK3_MAX_ENTRY) {
        snprintf(err, errsize, "%s: entry %s is %llu bytes (more than %u: not a map)", path, entry, (unsigned long long)st.size, PK3_MAX_ENTRY);
        zip_close(z);
        return false;
    }
    zip_file_t *f = zip_fopen(z, entry, ZIP_FL_NOCASE);
    uint8_t *data = malloc(st.size ? (size_t)st.size : 1);
    if (!f || !data) {
        snprintf(err, errsize, "%s: cannot read entry %s: %s", path, entry, f ? "out of memory" : zip_strerror(z));
        if (f) zip_fclose(f);
        free(data);
        zip_close(z);
        return false;
    }
    zip_int64_t got = zip_fread(f, data, st.size);
    zip_fclose(f);
    if (got < 0 || (zip_uint64_t)got != st.size) {
        snprintf(err, errsize, "%s: entry %s: read %lld of %llu bytes", path, entry, (long long)got, (unsigned long long)st.size);
        free(data);
        zip_close(z);
        return false;
    }
    zip_close(z);
    *out_data = data;
    *out_size = (size_t)st.size;
    return true;
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **level_list_maps(const char *pk3_path, int *out_count, char *err, size_t errsize) {
    *out_count = 0;
    zip_t *z = open_archive(pk3_path, err, errsize);
    if (!z) return NULL;
    zip_int64_t n = zip_get_num_entries(z, 0);
    char **names = calloc(n > 0 ? (size_t)n : 1, sizeof *names);
    int count = 0;
    for (zip_int64_t i = 0; names && i < n; ++i) {
        const char *e = zip_get_name(z, (zip_uint64_t)i, 0);
        size_t len = e ? strlen(e) : 0;
        if (len <= 9 || strncmp(e, "maps/", 5) != 0 || strcmp(e + len - 4, ".bsp") != 0 || strchr(e + 5, '/')) continue;
        names[count] = malloc(len - 8);
        if (!names[count]) break;
        memcpy(names[count], e + 5, len - 9);
        names[count][len - 9] = '\0';
        ++count;
    }
    zip_close(z);
    if (!names) {
        snprintf(err, errsize, "%s: out of memory listing the maps", pk3_path);
        return NULL;
    }
    qsort(names, (size_t)count, sizeof *names, compare_names);
    *out_count = count;
    return names;
}

void level_free_names(char **names, int count) {
    for (int i = 0; names && i < count; ++i) free(names[i]);
    free(names);
}
