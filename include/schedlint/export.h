/* SPDX-License-Identifier: Apache-2.0
** export.h: SL_API marks the symbols libschedlint exports; everything else is hidden. */
#ifndef SCHEDLINT_EXPORT_H
#define SCHEDLINT_EXPORT_H

#if defined(SL_BUILDING_LIBRARY) && defined(__GNUC__)
#define SL_API __attribute__((visibility("default")))
#else
#define SL_API
#endif

#endif
