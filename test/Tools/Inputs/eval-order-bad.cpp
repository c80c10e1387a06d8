// Input of check-eval-order.test. Line 5 passes two IR-building arguments
// to one call; the rest name a value first, or pass constants and a lambda.
void f(KernelIR &ir, Value a, Value b) {
  Value x =
      ir.add(ir.mul(a, b), ir.divU(a, b));
  Value y = ir.divU(a, b);
  Value z = ir.add(ir.mul(a, b), y);
  ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, a, b), [&] { ir.add(a, b); });
  Value w = ir.add(ir.mul(a, ir.c32(2)), ir.c32(1));
}
