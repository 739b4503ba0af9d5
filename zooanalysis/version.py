"""zoosim's version, in a module of its own so any module can read it without importing the
package's front door (``zooanalysis/__init__``), which imports the rest lazily."""

__version__ = "0.1.0"
