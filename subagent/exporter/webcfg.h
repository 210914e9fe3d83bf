/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --web.config.file: the Prometheus exporter-toolkit's web configuration
 * (YAML), the part of it fastmib-exporter implements:
 *
 *   tls_server_config:
 *     cert_file: server.crt     # PEM; a path relative to the file's directory
 *     key_file: server.key
 *   basic_auth_users:
 *     alice: $2y$10$...         # bcrypt hashes only, as the toolkit takes them
 *
 * Any other key is refused with a message naming it, so that a setting the
 * operator relies on is never silently ignored.
 */
#ifndef FME_WEBCFG_H
#define FME_WEBCFG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define FME_MAX_USERS 64

struct fme_webcfg {
	char *cert_pem, *key_pem;   /* the files' contents; NULL without TLS */
	unsigned int n_users;
	char *users[FME_MAX_USERS];
	char *hashes[FME_MAX_USERS];
	/* the password each user was last let in with, so that a scrape every
	 * few seconds costs one bcrypt, not one each (as the exporter-toolkit
	 * caches); under `lock` */
	char *accepted[FME_MAX_USERS];
	pthread_mutex_t lock;
};

/** Read `path` into cfg: 0, or -1 after a message naming the file and key
 *  (in msg). */
int fme_webcfg_load(const char *path, struct fme_webcfg *cfg, char *msg, size_t len);
void fme_webcfg_free(struct fme_webcfg *cfg);

/** Do user and password match an entry? The password the user was last
 *  let in with is compared in constant time; any other costs a bcrypt,
 *  the same for an unknown user as for a known one. Any thread. */
bool fme_webcfg_check(struct fme_webcfg *cfg, const char *user, const char *password);

#endif
