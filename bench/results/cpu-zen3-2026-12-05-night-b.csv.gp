# Charts of the tilejit-bench run in /work/main/bench/results/cpu-zen3-2026-12-05-night-b.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh /work/main/bench/results/cpu-zen3-2026-12-05-night-b.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" /work/main/bench/results/cpu-zen3-2026-12-05-night-b.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 18.7019
64 19.4531
EOD
$t0_1 << EOD
64 17.7114
EOD
$t0_2 << EOD
64 25.6819
64 28.3756
EOD
$t0_3 << EOD
64 25.8168
EOD
$t0_4 << EOD
64 15.3065
EOD
$t0_5 << EOD
64 24.6817
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
64 5.3396
64 5.55791
EOD
$t1_1 << EOD
64 4.99605
EOD
$t1_2 << EOD
64 8.51741
64 9.24037
EOD
$t1_3 << EOD
64 8.07577
EOD
$t1_4 << EOD
64 4.82549
EOD
$t1_5 << EOD
64 8.55375
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
64 5.85034
64 5.50941
EOD
$t2_1 << EOD
64 7.89501
EOD
$t2_2 << EOD
64 7.96331
64 5.3201
EOD
$t2_3 << EOD
64 13.0186
EOD
$t2_4 << EOD
64 4.77891
EOD
$t2_5 << EOD
64 7.69095
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
64 16.9794
64 17.4819
EOD
$t3_1 << EOD
64 18.1261
EOD
$t3_2 << EOD
64 23.502
64 24.7843
EOD
$t3_3 << EOD
64 24.7449
EOD
$t3_4 << EOD
64 17.3003
EOD
$t3_5 << EOD
64 24.2561
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 0.947039
"cpu/sum: tilejit width-1, 2 threads" 1.00525
"cpu/sum: tilejit cooperative, 1 thread" 0.786843
"cpu/sum: tilejit cooperative, 2 threads" 0.869819
"cpu/histogram: tilejit width-1, 1 thread" 0.935659
"cpu/histogram: tilejit width-1, 2 threads" 0.948149
"cpu/histogram: tilejit cooperative, 1 thread" 0.86822
"cpu/histogram: tilejit cooperative, 2 threads" 0.925693
"cpu/compact: tilejit width-1, 1 thread" 1.3495
"cpu/compact: tilejit width-1, 2 threads" 1.63482
"cpu/compact: tilejit cooperative, 1 thread" 0.867409
"cpu/compact: tilejit cooperative, 2 threads" 1.44564
"cpu/copy: tilejit width-1, 1 thread" 1.06753
"cpu/copy: tilejit width-1, 2 threads" 1.05289
"cpu/copy: tilejit cooperative, 1 thread" 0.989609
"cpu/copy: tilejit cooperative, 2 threads" 0.978687
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 17.5959
"ptx/multiply_elements" 13.6108
"ptx/row_products" 9.91278
"ptx/replace_rows" 11.8399
"ptx/histogram" 13.0105
"ptx/compact_values" 7.67076
"ptx/large" 1.67849
"ptx-first/store_doubled_thread_indices" 8.04389
"ptx-first/multiply_elements" 6.96008
"ptx-first/row_products" 7.89558
"ptx-first/replace_rows" 6.7506
"ptx-first/histogram" 6.76062
"ptx-first/compact_values" 6.21951
"ptx-first/large" 1.49078
"disk/store_doubled_thread_indices" 2.35375
"disk/store_doubled_thread_indices (CPU)" 8.24122
"disk/multiply_elements" 2.84416
"disk/multiply_elements (CPU)" 6.86447
"disk/row_products" 2.32444
"disk/row_products (CPU)" 7.64464
"disk/replace_rows" 2.45884
"disk/replace_rows (CPU)" 8.89186
"disk/histogram" 2.37739
"disk/histogram (CPU)" 7.79576
"disk/compact_values" 3.22472
"disk/compact_values (CPU)" 13.3161
"disk/large" 6.10186
"disk/large (CPU)" 30.4177
"source/store_doubled_thread_indices" 17.0804
"source-first/store_doubled_thread_indices" 7.35689
"source/multiply_elements" 11.0861
"source-first/multiply_elements" 7.31367
"source/row_products" 9.25421
"source-first/row_products" 6.8119
"source/replace_rows" 9.91317
"source-first/replace_rows" 6.38345
"source/histogram" 12.328
"source-first/histogram" 5.31535
"source/compact_values" 7.26827
"source-first/compact_values" 6.40333
"source/large" 1.69405
"source-first/large" 1.36462
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
