#!/usr/bin/env bash
# session 21 lead, round q2: bench/lead21/q1.sh with ROUND q2 (DIR = build/cubins-q2).
exec bash "$(dirname "$0")/q1.sh" "${1:-build/cubins-q2}" q2
