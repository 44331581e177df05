"""Numbers for a litmus test's names, which the reference models
(model.py) and the compiler (compile.py) both use."""


class Layout:
    """Numbers for the test's names: every mapped or declared virtual page
    gets its own 1 GiB region unless it is `va NAME = BASE+N`; every
    physical page name its own 1 GiB-aligned frame ("S+3" is three pages
    past S). Page tables are named by address space, level and prefix."""

    def __init__(self, test):
        self.vpn = {}
        for name in [m.va for m in test.maps] + list(test.vas):
            if test.vas.get(name) is None:
                self.vpn.setdefault(name, (len(self.vpn) + 1) << 18)
        for name, decl in test.vas.items():
            if decl:
                self.vpn[name] = self.vpn[decl[0]] + decl[1]
        self.ppn = {}
        names = [m.pa for m in test.maps] + list(test.mem)
        names += [op.mapping.pa for ops in test.harts for op in ops if op.mapping]
        names += [t.name for c in test.forbidden + test.weak for t in c if t.hart is None]
        for n in names:
            base = n.split("+")[0]
            self.ppn.setdefault(base, (len(self.ppn) + 1) << 18)

    def pa(self, name):
        base, _, off = name.partition("+")
        return self.ppn[base] + int(off or 0)
