from instance.cli import main

main()
