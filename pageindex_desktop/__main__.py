from pageindex_desktop.app import main
import sys

sys.exit(main())
