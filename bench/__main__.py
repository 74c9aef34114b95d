"""Entry point for `python -m bench`."""


def main() -> None:
    print("no benchmarks yet")


if __name__ == "__main__":
    main()
