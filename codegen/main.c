/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-gen: YAML counter model -> <prefix>_stats.h, <prefix>_schema.c
 * and <MODULE-NAME>.txt, and on request a Prometheus snmp_exporter
 * generator.yml. Exit status: 0 success, 1 usage or I/O error, 2 model
 * error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "gen_names.h"
#include "model_load.h"
#include "output.h"
#include "strbuf.h"

#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "unknown"
#endif

static void
usage(FILE *f)
{
	fputs("usage: fastmib-gen MODEL.yaml -o DIR\n"
	      "       fastmib-gen --check MODEL.yaml\n"
	      "       fastmib-gen --names MODEL.yaml\n"
	      "       fastmib-gen MODEL.yaml [-o DIR] -x FILE [--snmp-exporter-events]\n"
	      "                  [--snmp-exporter-max-rows N] [--snmp-exporter-table GROUP]...\n"
	      "\n"
	      "Generate <prefix>_stats.h, <prefix>_schema.c and <MODULE-NAME>.txt\n"
	      "from a fastmib counter model (see docs/model.md).\n"
	      "\n"
	      "  -o, --output DIR  write the generated files into DIR (created if needed)\n"
	      "  -c, --check       validate the model only; write nothing\n"
	      "  -n, --names       validate, then list every name the outputs define\n"
	      "                    (namespace, name, model object); write nothing\n"
	      "  -x, --snmp-exporter FILE\n"
	      "                    also (or only) write a Prometheus snmp_exporter\n"
	      "                    generator.yml with a module for the model to FILE\n"
	      "                    (- for standard output); see docs/nms.md\n"
	      "      --snmp-exporter-events\n"
	      "                    include the event table in that module (a row,\n"
	      "                    and new series, per logged record)\n"
	      "      --snmp-exporter-max-rows N\n"
	      "                    leave out of that module the tables that can hold\n"
	      "                    more than N rows (default 1024)\n"
	      "      --snmp-exporter-table GROUP\n"
	      "                    walk table GROUP whatever its size (repeatable)\n"
	      "  -h, --help        show this help\n"
	      "  -V, --version     show the version\n"
	      "\n"
	      "Exit status: 0 success, 1 usage or I/O error, 2 model error\n"
	      "(reported as FILE:LINE:COL: error: MESSAGE).\n", f);
}

static char *
file_name(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%s", a, b);
	return s;
}

static int
generate(const struct model *m, const char *dir)
{
	struct strbuf text[3];
	struct out_file files[3];
	int rc, i;

	for (i = 0; i < 3; i++)
		sb_init(&text[i]);
	emit_header(m, &text[0]);
	emit_schema(m, &text[1]);
	emit_mib(m, &text[2]);
	files[0].name = file_name(m->prefix, "_stats.h");
	files[1].name = file_name(m->prefix, "_schema.c");
	files[2].name = file_name(m->module, ".txt");
	for (i = 0; i < 3; i++)
		files[i].text = &text[i];
	rc = write_outputs(dir, files, 3);
	for (i = 0; i < 3; i++) {
		free(files[i].name);
		sb_free(&text[i]);
	}
	return rc;
}

/* FILE, or standard output for "-"; a file is replaced all at once. */
static int
write_exporter(const struct model *m, const char *path, const struct exporter_opts *o)
{
	struct strbuf text;
	int rc = 0;

	for (size_t i = 0; i < o->n_tables; i++) {
		uint32_t g = 0;

		while (g < m->n_groups && (m->groups[g].n_indexes == 0 ||
					   strcmp(m->groups[g].name, o->tables[i]) != 0))
			g++;
		if (g == m->n_groups) {
			fprintf(stderr, "fastmib-gen: --snmp-exporter-table %s: %s has no "
					"table group of that name\n", o->tables[i], m->source);
			return 1;
		}
	}
	sb_init(&text);
	emit_exporter(m, o, &text);
	if (strcmp(path, "-") == 0) {
		if (fwrite(text.data, 1, text.len, stdout) != text.len || fflush(stdout) != 0) {
			perror("fastmib-gen: standard output");
			rc = 1;
		}
	} else {
		/* dirname() and basename() may modify their argument */
		char *d = xstrdup(path), *b = xstrdup(path);
		struct out_file f = { basename(b), &text };

		rc = write_outputs(dirname(d), &f, 1);
		free(d);
		free(b);
	}
	sb_free(&text);
	return rc;
}

enum { OPT_EXPORTER_EVENTS = 256, OPT_EXPORTER_MAX_ROWS, OPT_EXPORTER_TABLE };

/* --snmp-exporter-max-rows: a decimal number of rows, at least 1. */
static bool
parse_max_rows(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < 1 || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "check", no_argument, NULL, 'c' },
		{ "names", no_argument, NULL, 'n' },
		{ "snmp-exporter", required_argument, NULL, 'x' },
		{ "snmp-exporter-events", no_argument, NULL, OPT_EXPORTER_EVENTS },
		{ "snmp-exporter-max-rows", required_argument, NULL, OPT_EXPORTER_MAX_ROWS },
		{ "snmp-exporter-table", required_argument, NULL, OPT_EXPORTER_TABLE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outdir = NULL, *exporter = NULL;
	struct model m;
	int check = 0, list = 0, c, rc;
	struct exporter_opts xo = { .max_rows = EXPORTER_MAX_ROWS };
	const char **tables = xcalloc((size_t)argc, sizeof(*tables));
	bool exporter_extras = false;

	while ((c = getopt_long(argc, argv, "o:cnx:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outdir = optarg;
			break;
		case 'c':
			check = 1;
			break;
		case 'n':
			list = 1;
			break;
		case 'x':
			exporter = optarg;
			break;
		case OPT_EXPORTER_EVENTS:
			xo.event_table = exporter_extras = true;
			break;
		case OPT_EXPORTER_MAX_ROWS:
			exporter_extras = true;
			if (!parse_max_rows(optarg, &xo.max_rows)) {
				fprintf(stderr, "fastmib-gen: --snmp-exporter-max-rows '%s': "
						"not a number of rows (1 or more)\n", optarg);
				free(tables);
				return 1;
			}
			break;
		case OPT_EXPORTER_TABLE:
			exporter_extras = true;
			tables[xo.n_tables++] = optarg;
			break;
		case 'h':
			usage(stdout);
			free(tables);
			return 0;
		case 'V':
			printf("fastmib-gen %s (model format %d)\n", FASTMIB_VERSION,
			       FASTMIB_MODEL_VERSION);
			free(tables);
			return 0;
		default:
			usage(stderr);
			free(tables);
			return 1;
		}
	}
	xo.tables = tables;
	if (optind != argc - 1 || check + list + (outdir || exporter) != 1 ||
	    (exporter_extras && !exporter) || (exporter && !*exporter)) {
		usage(stderr);
		free(tables);
		return 1;
	}
	rc = model_load(argv[optind], &m);
	if (rc == 0 && list)
		print_names(&m, stdout);
	if (rc == 0 && outdir)
		rc = generate(&m, outdir);
	if (rc == 0 && exporter)
		rc = write_exporter(&m, exporter, &xo);
	model_free(&m);
	free(tables);
	return rc;
}
