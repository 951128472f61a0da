#!/usr/bin/env python3
"""Copies the code examples of the Torch7 seed documents, verbatim, into
test data for tests/lua/torch_seed_examples_test.lua.

    tools/torch7_interop/extract_seed_examples.py ../shared/spec tests/lua/testdata

Writes seed_torch7_tensor.txt and seed_torch7_reference.txt: each example
(a fenced block, its text unchanged) after a line
"=== example N: HEADING", N counting from 1 in document order, HEADING the
section it is in. The test's table of notes refers to examples by N, so
rerun this only when the seed documents change, and check the notes then.
"""
import pathlib
import re
import sys


def examples(text):
    """(heading, block) for each fenced block, in order."""
    found, block, heading, block_heading = [], None, '', ''
    for line in text.split('\n'):
        fence = re.match(r'^(`{3,})(.*)$', line)
        if block is None and line.startswith('#'):
            heading = line.lstrip('#').strip()
        if fence:
            if block is None:
                block, block_heading = [], heading
                rest = fence.group(2)
                # Code may start on the fence line; a language tag may not.
                if rest and not re.fullmatch(r'\w+', rest):
                    block.append(rest)
            else:
                found.append((block_heading, '\n'.join(block)))
                block = None
        elif block is not None:
            if line.rstrip().endswith('```') and not line.startswith('`'):
                block.append(line.rstrip().rstrip('`'))
                found.append((block_heading, '\n'.join(block)))
                block = None
            else:
                block.append(line)
    return found


def main(spec, out):
    for name in ('tensor', 'reference'):
        source = pathlib.Path(spec, f'seed-torch7-{name}.md').read_text()
        lines = []
        for n, (heading, block) in enumerate(examples(source), 1):
            lines.append(f'=== example {n}: {heading}')
            lines.append(block)
        pathlib.Path(out, f'seed_torch7_{name}.txt').write_text('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main(*sys.argv[1:3])
