from pica.cli import main

main()
