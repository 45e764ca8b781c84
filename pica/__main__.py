from pica.kernel.cli import main

main()
