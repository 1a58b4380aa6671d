/*
 * ids.h - sizes of the names the record carries: table ids and actor (token)
 * names are 1..32 bytes of [A-Za-z0-9_.-].
 */
#ifndef PB_COMMON_IDS_H
#define PB_COMMON_IDS_H

#define PB_ID_MAX 33
#define PB_NAME_MAX 97

#endif
