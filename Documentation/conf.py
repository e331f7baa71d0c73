# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx configuration for the pfmk documentation (make htmldocs).
#
# The API reference is generated from the sources by the kernel's own
# kernel-doc Sphinx extension.  pfmk does not carry a copy: the extension
# and scripts/kernel-doc come from an extracted linux-source tree, whose
# path scripts/htmldocs.sh passes in PFMK_KERNEL_SRC.  Directives name
# files relative to the pfmk repository root, e.g.
#
#   .. kernel-doc:: kapi/kapi.c
#      :export:

import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_ksrc = os.environ.get('PFMK_KERNEL_SRC')
if not _ksrc or not os.path.isfile(os.path.join(_ksrc, 'scripts', 'kernel-doc')):
    sys.exit('pfmk conf.py: set PFMK_KERNEL_SRC to an extracted linux-source '
             'tree (scripts/htmldocs.sh does it), got %r' % _ksrc)

# The kernel's Documentation/sphinx/ holds kerneldoc.py (and, up to 6.14,
# kernellog.py).  From 6.15 kerneldoc.py runs kernel-doc's Python library
# in process, from $srctree/tools/lib/python: scripts/htmldocs.sh sets
# srctree to the same tree.
sys.path.insert(0, os.path.join(_ksrc, 'Documentation', 'sphinx'))

# -- Project information ---------------------------------------------------

project = 'pfmk'
author = 'The pfmk authors'
copyright = 'The pfmk authors; GPL-2.0-only'
# No version string: the documentation describes the tree it is built from.
version = ''
release = ''

# -- General configuration -------------------------------------------------

needs_sphinx = '5.3'
# kerneldoc: the kernel-doc directive.  automarkup: turns function() and
# struct name in prose into links when (and only when) they resolve.
extensions = ['kerneldoc', 'automarkup']

# kernel-doc: the kernel tree's script, run on pfmk's sources (up to 6.14).
kerneldoc_bin = os.path.join(_ksrc, 'scripts', 'kernel-doc')
kerneldoc_srctree = os.path.dirname(_here)
# 1: kernel-doc's own warnings go to stderr, where scripts/htmldocs.sh
# counts them beside Sphinx's.
kerneldoc_verbosity = 1

# kernel-doc emits C domain directives; the kernel annotations below are
# not C to Sphinx's parser (the same list as the kernel's conf.py, trimmed
# to what can appear in pfmk prototypes).
primary_domain = 'c'
highlight_language = 'none'
c_id_attributes = [
    '__always_inline', '__cold', '__iomem', '__init', '__exit', '__kernel',
    '__maybe_unused', '__must_check', '__percpu', '__pure', '__rcu',
    '__user', '__force', 'noinline', 'notrace', '__printf', '__packed',
    '__aligned', '__counted_by', '__used', '__weak',
]

source_suffix = '.rst'
root_doc = 'index'
# README.md is GitHub's front page, not part of this tree; build output and
# editor leftovers are not sources either.
exclude_patterns = ['_build', 'build', 'output', '**/.*', 'README*']
templates_path = []

# scripts/htmldocs.sh runs sphinx-build -n: every C reference must
# resolve.  Kernel types are not documented here; do not look for them.
nitpick_ignore = [('c:identifier', t) for t in (
    'bool', 'size_t', 'ssize_t', 'loff_t', 'gfp_t', 'pid_t',
    'u8', 'u16', 'u32', 'u64', 's8', 's16', 's32', 's64',
    '__u8', '__u16', '__u32', '__u64', '__s8', '__s16', '__s32', '__s64',
    'completion', 'module', 'perf_event', 'perf_event_attr', 'pt_regs',
    'perf_sample_data', 'hrtimer', 'list_head', 'mutex', 'spinlock_t',
    'atomic_t', 'refcount_t', 'work_struct', 'irq_work', 'cpumask',
)]

# -- HTML output -----------------------------------------------------------

html_theme = 'alabaster'
html_title = 'pfmk: the perfmon2 kernel-level API on perf_events'
html_static_path = []
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {
    'description': 'perfmon2 KAPI on perf_events',
    'page_width': '1100px',
}
