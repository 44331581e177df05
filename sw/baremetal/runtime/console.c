/* printf over the platform's putchar_raw, one whole line at a time. */
#include "runtime.h"

static spinlock_t console_lock;

struct out {
	char buf[256];
	size_t n;
};

static void emit(struct out *o, char c)
{
	if (o->n < sizeof(o->buf))
		o->buf[o->n++] = c;
}

static void emit_number(struct out *o, unsigned long long v, unsigned base, int neg, int width, char pad)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		tmp[n++] = '-';
	while (width-- > n)
		emit(o, pad);
	while (n)
		emit(o, tmp[--n]);
}

int vprintf(const char *fmt, va_list ap)
{
	struct out o;
	o.n = 0;
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			emit(&o, *fmt);
			continue;
		}
		char pad = ' ';
		int width = 0, lng = 0;
		if (*++fmt == '0')
			pad = '0', fmt++;
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l')
			lng++, fmt++;
		switch (*fmt) {
		case 'd': {
			long long v = lng ? va_arg(ap, long long) : va_arg(ap, int);
			emit_number(&o, v < 0 ? -(unsigned long long)v : (unsigned long long)v, 10, v < 0,
				    width, pad);
			break;
		}
		case 'u':
			emit_number(&o, lng ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned), 10, 0,
				    width, pad);
			break;
		case 'x':
			emit_number(&o, lng ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned), 16, 0,
				    width, pad);
			break;
		case 'p':
			emit(&o, '0');
			emit(&o, 'x');
			emit_number(&o, (unsigned long)va_arg(ap, void *), 16, 0, width, pad);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			int len = (int)strlen(s);
			while (width-- > len)
				emit(&o, ' ');
			while (*s)
				emit(&o, *s++);
			break;
		}
		case 'c':
			emit(&o, (char)va_arg(ap, int));
			break;
		case '%':
			emit(&o, '%');
			break;
		default:
			emit(&o, '%');
			emit(&o, *fmt);
			if (!*fmt)
				fmt--;
		}
	}
	spin_lock(&console_lock);
	for (size_t i = 0; i < o.n; i++)
		putchar_raw(o.buf[i]);
	spin_unlock(&console_lock);
	return (int)o.n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}
