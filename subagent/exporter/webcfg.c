/* SPDX-License-Identifier: BSD-3-Clause */
/* --web.config.file (webcfg.h). */
#include <crypt.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "webcfg.h"

/* A hash no password matches, bcrypt of cost 10: what an unknown user is
 * checked against, so that it takes as long as a known one. */
static const char dummy_hash[] =
	"$2y$10$Q7dz0n3QvJrS5mG8xP1aLeKOKac8hBYGlc7IHsuFWCqR30TlPaJuS";

static char *
read_file(const char *path, char *msg, size_t len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		snprintf(msg, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = cap ? 2 * cap : 8192);

			if (!b) {
				free(buf);
				fclose(f);
				snprintf(msg, len, "%s: out of memory", path);
				return NULL;
			}
			buf = b;
		}
		size_t r = fread(buf + n, 1, 4096, f);

		n += r;
		if (r < 4096)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static const char *
scalar(yaml_document_t *doc, yaml_node_t *node)
{
	(void)doc;
	return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value
						       : NULL;
}

/* A path of the file, relative to the configuration file's directory. */
static char *
resolve(const char *cfg_path, const char *file, char *msg, size_t len)
{
	char dir[PATH_MAX], full[2 * PATH_MAX + 2];

	if (file[0] == '/')
		return read_file(file, msg, len);
	snprintf(dir, sizeof(dir), "%s", cfg_path);
	snprintf(full, sizeof(full), "%s/%s", dirname(dir), file);
	return read_file(full, msg, len);
}

static int
load_tls(const char *path, yaml_document_t *doc, yaml_node_t *map, struct fme_webcfg *cfg,
	 char *msg, size_t len)
{
	const char *cert = NULL, *key = NULL;

	if (map->type != YAML_MAPPING_NODE) {
		snprintf(msg, len, "%s: tls_server_config is not a mapping", path);
		return -1;
	}
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(doc, yaml_document_get_node(doc, p->key));
		const char *v = scalar(doc, yaml_document_get_node(doc, p->value));

		if (!k || !v) {
			snprintf(msg, len, "%s: tls_server_config: a key and value must be words",
				 path);
			return -1;
		}
		if (!strcmp(k, "cert_file"))
			cert = v;
		else if (!strcmp(k, "key_file"))
			key = v;
		else {
			snprintf(msg, len, "%s: tls_server_config: %s is not supported "
				 "(cert_file and key_file are)", path, k);
			return -1;
		}
	}
	if (!cert || !key || !*cert || !*key) {
		snprintf(msg, len, "%s: tls_server_config needs cert_file and key_file", path);
		return -1;
	}
	if (!(cfg->cert_pem = resolve(path, cert, msg, len)) ||
	    !(cfg->key_pem = resolve(path, key, msg, len)))
		return -1;
	return 0;
}

static bool
is_bcrypt(const char *h)
{
	return strlen(h) == 60 && h[0] == '$' && h[1] == '2' &&
	       (h[2] == 'a' || h[2] == 'b' || h[2] == 'y') && h[3] == '$';
}

static int
load_users(const char *path, yaml_document_t *doc, yaml_node_t *map, struct fme_webcfg *cfg,
	   char *msg, size_t len)
{
	if (map->type != YAML_MAPPING_NODE) {
		snprintf(msg, len, "%s: basic_auth_users is not a mapping", path);
		return -1;
	}
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(doc, yaml_document_get_node(doc, p->key));
		const char *v = scalar(doc, yaml_document_get_node(doc, p->value));

		if (!k || !v || !*k) {
			snprintf(msg, len, "%s: basic_auth_users: a user and its hash must be "
				 "words", path);
			return -1;
		}
		if (!is_bcrypt(v)) {
			snprintf(msg, len, "%s: basic_auth_users: %s: not a bcrypt hash ($2y$...)",
				 path, k);
			return -1;
		}
		if (cfg->n_users == FME_MAX_USERS) {
			snprintf(msg, len, "%s: basic_auth_users: more than %d users", path,
				 FME_MAX_USERS);
			return -1;
		}
		cfg->users[cfg->n_users] = strdup(k);
		cfg->hashes[cfg->n_users] = strdup(v);
		if (!cfg->users[cfg->n_users] || !cfg->hashes[cfg->n_users++]) {
			snprintf(msg, len, "%s: out of memory", path);
			return -1;
		}
	}
	return 0;
}

int
fme_webcfg_load(const char *path, struct fme_webcfg *cfg, char *msg, size_t len)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	char *text = read_file(path, msg, len);
	int rc = 0;

	memset(cfg, 0, sizeof(*cfg));
	pthread_mutex_init(&cfg->lock, NULL);
	if (!text)
		return -1;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(msg, len, "%s:%zu:%zu: %s", path, parser.problem_mark.line + 1,
			 parser.problem_mark.column + 1, parser.problem ? parser.problem : "bad YAML");
		yaml_parser_delete(&parser);
		free(text);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (root && root->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
		     rc == 0 && p < root->data.mapping.pairs.top; p++) {
			const char *k = scalar(&doc, yaml_document_get_node(&doc, p->key));
			yaml_node_t *v = yaml_document_get_node(&doc, p->value);

			if (k && !strcmp(k, "tls_server_config"))
				rc = load_tls(path, &doc, v, cfg, msg, len);
			else if (k && !strcmp(k, "basic_auth_users"))
				rc = load_users(path, &doc, v, cfg, msg, len);
			else {
				snprintf(msg, len, "%s: %s is not supported (tls_server_config and "
					 "basic_auth_users are)", path, k ? k : "a key");
				rc = -1;
			}
		}
	} else if (root && !(root->type == YAML_SCALAR_NODE && !*root->data.scalar.value)) {
		snprintf(msg, len, "%s: not a mapping", path);
		rc = -1;
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	free(text);
	if (rc < 0)
		fme_webcfg_free(cfg);
	return rc;
}

void
fme_webcfg_free(struct fme_webcfg *cfg)
{
	free(cfg->cert_pem);
	free(cfg->key_pem);
	for (unsigned int i = 0; i < cfg->n_users; i++) {
		free(cfg->users[i]);
		free(cfg->hashes[i]);
		free(cfg->accepted[i]);
	}
	pthread_mutex_destroy(&cfg->lock);
	memset(cfg, 0, sizeof(*cfg));
	pthread_mutex_init(&cfg->lock, NULL);
}

/* Equal strings, in a time that depends on their lengths only. */
static bool
same(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	unsigned char diff = n != m;

	for (size_t i = 0; i < n && i < m; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

bool
fme_webcfg_check(struct fme_webcfg *cfg, const char *user, const char *password)
{
	const char *hash = dummy_hash, *got;
	struct crypt_data *cd;
	int known = -1;
	bool ok = false;

	for (unsigned int i = 0; i < cfg->n_users; i++)
		if (!strcmp(cfg->users[i], user))
			known = (int)i;
	if (known >= 0) {
		pthread_mutex_lock(&cfg->lock);
		ok = cfg->accepted[known] && same(cfg->accepted[known], password);
		pthread_mutex_unlock(&cfg->lock);
		if (ok)
			return true;
		hash = cfg->hashes[known];
	}
	cd = calloc(1, sizeof(*cd)); /* 32 KiB: not on a connection thread's stack */
	if (!cd)
		return false;
	got = crypt_r(password, hash, cd);
	ok = known >= 0 && got && same(got, hash);
	free(cd);
	if (ok) {
		char *copy = strdup(password);

		pthread_mutex_lock(&cfg->lock);
		if (copy) {
			free(cfg->accepted[known]);
			cfg->accepted[known] = copy;
		}
		pthread_mutex_unlock(&cfg->lock);
	}
	return ok;
}
