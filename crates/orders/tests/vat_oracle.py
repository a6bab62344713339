#!/usr/bin/env python3
"""Print EU VAT numbers judged by python-stdnum, as an oracle for src/vat_number.rs.

Run it with the Python of a virtualenv that has python-stdnum installed, or
point --venv at one:

    /tmp/stdnum-venv/bin/python vat_oracle.py --per-country 300 > oracle.tsv
    python3 vat_oracle.py --venv /tmp/stdnum-venv > oracle.tsv

Each line is `NUMBER<TAB>valid|invalid`, judged by `stdnum.eu.vat.is_valid`.
Per member state the script builds random bodies in each of the forms that
state's module accepts, completes them with the check digits stdnum accepts
(found by trying every candidate at the check position, so the generator
needs no copy of the algorithms), and adds mutations of those numbers (one
character changed, swapped, dropped or added) and plain random strings.
Some numbers get spaces or a lower-case prefix, which both sides allow; no
other separators, since not every stdnum module strips dots or dashes.

Northern Ireland (XI) and the OSS schemes (EU, IM) are left out: stdnum's
eu.vat accepts them, but they are not member states.
"""

import argparse
import glob
import itertools
import os
import random
import string
import sys

DIGITS = string.digits
LETTERS = string.ascii_uppercase


def load_stdnum(venv):
    if venv:
        for path in glob.glob(os.path.join(venv, 'lib', 'python3*', 'site-packages')):
            sys.path.insert(0, path)
    from stdnum.eu import vat
    return vat


def digits(rng, count, first=DIGITS):
    if count <= 0:
        return ''
    return rng.choice(first) + ''.join(rng.choice(DIGITS) for _ in range(count - 1))


def date_digits(rng, year_range=(1900, 2099)):
    """Year, month and day of a random (usually real) date, as integers."""
    year = rng.randint(*year_range)
    month = rng.randint(1, 12)
    day = rng.randint(1, 31 if rng.random() < 0.1 else 28)
    return year, month, day


class Gen:
    """Completes bodies with the check characters stdnum accepts."""

    def __init__(self, vat, rng):
        self.vat = vat
        self.rng = rng

    def complete(self, prefix, head, tail='', alphabet=DIGITS, width=1):
        """Fill `width` characters between head and tail so that stdnum accepts the number."""
        found = [c for c in (''.join(p) for p in itertools.product(alphabet, repeat=width))
                 if self.vat.is_valid(prefix + head + c + tail)]
        return head + self.rng.choice(found) + tail if found else None


def bodies(cc, rng):
    """(head, tail, alphabet, width) tuples: a random body with a gap for the check characters."""
    d = lambda n, first=DIGITS: digits(rng, n, first)  # noqa: E731
    if cc == 'AT':
        return ['U' + d(7), '', DIGITS, 1]
    if cc == 'BE':
        head = rng.choice('01') + d(7)
        return [head if rng.random() < 0.8 else head[1:], '', DIGITS, 2]
    if cc == 'BG':
        kind = rng.choice(['legal', 'egn', 'pnf'])
        if kind == 'egn':
            year, month, day = date_digits(rng, (1800, 2099))
            month += 20 if year < 1900 else 40 if year >= 2000 else 0
            return ['%02d%02d%02d' % (year % 100, month, day) + d(3), '', DIGITS, 1]
        return [d(8 if kind == 'legal' else 9), '', DIGITS, 1]
    if cc == 'CY':
        return [rng.choice(['12', d(2)]) + d(6), '', LETTERS, 1]
    if cc == 'CZ':
        kind = rng.choice(['legal', 'special', 'rc9', 'rc10'])
        if kind == 'legal':
            return [d(7), '', DIGITS, 1]
        if kind == 'special':
            return ['6' + d(7), '', DIGITS, 1]
        year, month, day = date_digits(rng, (1900, 1953) if kind == 'rc9' else (1954, 2053))
        month += rng.choice([0, 50, 20, 70]) if kind == 'rc10' else rng.choice([0, 50])
        head = '%02d%02d%02d' % (year % 100, month, day) + d(3 if kind == 'rc10' else 2)
        return [head, '', DIGITS, 1]
    if cc == 'DE':
        return [d(8, '123456789'), '', DIGITS, 1]
    if cc == 'DK':
        return [d(7, '123456789'), '', DIGITS, 1]
    if cc == 'EE':
        return [d(8), '', DIGITS, 1]
    if cc == 'ES':
        first = rng.choice(['digit', 'KLM', 'XYZ', 'ABCDEFGHJNPQRSUVW', 'IOT'])
        head = (d(1) if first == 'digit' else rng.choice(first)) + d(7)
        return [head, '', DIGITS + LETTERS, 1]
    if cc == 'FI':
        return [d(7), '', DIGITS, 1]
    if cc == 'FR':
        siren = '000' + d(6) if rng.random() < 0.05 else with_luhn(d(8))
        if rng.random() < 0.5:
            return ['', siren, DIGITS, 2]
        return ['', siren, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ', 2]
    if cc in ('EL', 'GR'):
        return [d(7 if rng.random() < 0.2 else 8), '', DIGITS, 1]
    if cc == 'HR':
        return [d(10), '', DIGITS, 1]
    if cc == 'HU':
        return [d(7), '', DIGITS, 1]
    if cc == 'IE':
        if rng.random() < 0.6:
            return [d(7), rng.choice(['', '', 'A', 'H', 'W', rng.choice('WABCDEFGHIJKLMNOPQRSTUV')]),
                    'WABCDEFGHIJKLMNOPQRSTUV', 1]
        return [d(1) + rng.choice(LETTERS + '+*') + d(5), '', 'WABCDEFGHIJKLMNOPQRSTUV', 1]
    if cc == 'IT':
        province = rng.choice(['%03d' % rng.randint(0, 130), '120', '121', '888', '999', d(3)])
        return [d(7) + province, '', DIGITS, 1]
    if cc == 'LT':
        return [rng.choice([d(7) + '1', d(10) + '1', d(8), d(11)]), '', DIGITS, 1]
    if cc == 'LU':
        return [d(6), '', DIGITS, 2]
    if cc == 'LV':
        kind = rng.choice(['legal', 'new', 'old'])
        if kind == 'legal':
            return [d(10, '456789'), '', DIGITS, 1]
        if kind == 'new':
            return ['32' + d(8), '', DIGITS, 1]
        year, month, day = date_digits(rng, (1800, 2099))
        return ['%02d%02d%02d%d' % (day, month, year % 100, year // 100 - 18) + d(3), '', DIGITS, 1]
    if cc == 'MT':
        return [d(6, '123456789'), '', DIGITS, 2]
    if cc == 'NL':
        if rng.random() < 0.5:
            return [d(8), 'B' + d(2), DIGITS, 1]
        return [d(9) + 'B', '', DIGITS, 2]
    if cc == 'PL':
        return [d(9), '', DIGITS, 1]
    if cc == 'PT':
        return [d(8, '123456789'), '', DIGITS, 1]
    if cc == 'RO':
        if rng.random() < 0.7:
            return [d(rng.randint(1, 9), '123456789'), '', DIGITS, 1]
        year, month, day = date_digits(rng, (1800, 2099))
        sex = rng.choice({18: '34', 19: '1278', 20: '56'}[year // 100] + '9')
        county = rng.choice(['%02d' % rng.randint(1, 52), '70', '80', '83', d(2)])
        return [sex + '%02d%02d%02d' % (year % 100, month, day) + county + d(3), '', DIGITS, 1]
    if cc == 'SE':
        return [d(9), '01', DIGITS, 1]
    if cc == 'SI':
        return [d(7, '123456789'), '', DIGITS, 1]
    if cc == 'SK':
        if rng.random() < 0.3:
            year, month, day = date_digits(rng, (1954, 2053))
            return ['%02d%02d%02d' % (year % 100, month + rng.choice([0, 50]), day) + d(3), '', DIGITS, 1]
        return [d(9), '', DIGITS, 1]
    raise ValueError(cc)


def with_luhn(body):
    """Append the Luhn check digit (the SIREN inside a French number)."""
    from stdnum import luhn
    return body + luhn.calc_check_digit(body)


PREFIXES = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR',
            'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK']


def mutate(number, rng):
    """One random edit of the local part (the prefix is kept)."""
    prefix, local = number[:2], number[2:]
    if not local:
        return number
    pos = rng.randrange(len(local))
    pool = DIGITS * 3 + LETTERS
    kind = rng.choice(['change', 'change', 'change', 'swap', 'drop', 'add'])
    if kind == 'change':
        local = local[:pos] + rng.choice(pool) + local[pos + 1:]
    elif kind == 'swap' and len(local) > 1:
        pos = min(pos, len(local) - 2)
        local = local[:pos] + local[pos + 1] + local[pos] + local[pos + 2:]
    elif kind == 'drop':
        local = local[:pos] + local[pos + 1:]
    else:
        local = local[:pos] + rng.choice(pool) + local[pos:]
    return prefix + local


def dress(number, rng):
    """Spaces and lower case, as people type them."""
    if rng.random() < 0.2:
        number = number[:2].lower() + number[2:]
    if rng.random() < 0.2:
        cut = rng.randrange(2, len(number) + 1)
        number = number[:cut] + ' ' + number[cut:]
    if rng.random() < 0.1:
        number = number[:2] + ' ' + number[2:]
    return number


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--venv', help='virtualenv with python-stdnum (default: this Python)')
    parser.add_argument('--per-country', type=int, default=200, help='valid numbers built per member state')
    parser.add_argument('--seed', type=int, default=2024)
    args = parser.parse_args()
    vat = load_stdnum(args.venv)
    rng = random.Random(args.seed)
    gen = Gen(vat, rng)
    out = sys.stdout
    for cc in PREFIXES:
        built = []
        for _ in range(args.per_country):
            head, tail, alphabet, width = bodies(cc, rng)
            number = gen.complete(cc, head, tail, alphabet, width)
            if number is None:  # no check character fits this body (or the body is out of range)
                number = head + ''.join(rng.choice(alphabet) for _ in range(width)) + tail
            built.append((rng.choice(['GR', 'EL']) if cc == 'EL' else cc) + number)
        numbers = list(built)
        for number in built:
            numbers.extend(mutate(number, rng) for _ in range(3))
        for _ in range(args.per_country // 4):
            length = rng.randint(0, 15)
            numbers.append(cc + ''.join(rng.choice(DIGITS * 4 + LETTERS) for _ in range(length)))
        for number in numbers:
            number = dress(number, rng)
            out.write('%s\t%s\n' % (number, 'valid' if vat.is_valid(number) else 'invalid'))
    # a few numbers with prefixes that are not member states
    for prefix in ['GB', 'CH', 'NO', 'US', 'XX', 'E', '']:
        for _ in range(5):
            number = prefix + digits(rng, rng.randint(6, 12))
            out.write('%s\t%s\n' % (number, 'valid' if vat.is_valid(number) else 'invalid'))


if __name__ == '__main__':
    main()
