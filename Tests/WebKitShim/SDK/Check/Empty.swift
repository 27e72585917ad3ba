// Empty.swift — a module of no declarations: stands for the package's other modules, whose sources scripts/apple-sdk-check.sh compiles with the host's.
