# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-midday-b.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-midday-b.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-midday-b.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 33.9327
64 32.7033
EOD
$t0_1 << EOD
64 40.5324
EOD
$t0_2 << EOD
64 46.5049
64 48.0163
EOD
$t0_3 << EOD
64 51.0492
EOD
$t0_4 << EOD
64 25.2306
EOD
$t0_5 << EOD
64 45.209
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
64 6.58648
64 6.58314
EOD
$t1_1 << EOD
64 6.03681
EOD
$t1_2 << EOD
64 11.6328
64 11.7061
EOD
$t1_3 << EOD
64 11.9902
EOD
$t1_4 << EOD
64 5.50383
EOD
$t1_5 << EOD
64 10.9776
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
64 8.47268
64 8.46308
EOD
$t2_1 << EOD
64 12.8302
EOD
$t2_2 << EOD
64 10.9658
64 10.9743
EOD
$t2_3 << EOD
64 22.4569
EOD
$t2_4 << EOD
64 6.70017
EOD
$t2_5 << EOD
64 12.4448
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
64 33.1604
64 34.755
EOD
$t3_1 << EOD
64 34.956
EOD
$t3_2 << EOD
64 37.7073
64 36.5147
EOD
$t3_3 << EOD
64 45.1144
EOD
$t3_4 << EOD
64 29.4523
EOD
$t3_5 << EOD
64 34.9409
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
"cpu/sum: tilejit width-1, 1 thread" 1.19449
"cpu/sum: tilejit width-1, 2 threads" 1.09772
"cpu/sum: tilejit cooperative, 1 thread" 0.771499
"cpu/sum: tilejit cooperative, 2 threads" 0.941533
"cpu/histogram: tilejit width-1, 1 thread" 0.916545
"cpu/histogram: tilejit width-1, 2 threads" 1.03072
"cpu/histogram: tilejit cooperative, 1 thread" 0.83605
"cpu/histogram: tilejit cooperative, 2 threads" 0.937768
"cpu/compact: tilejit width-1, 1 thread" 1.5143
"cpu/compact: tilejit width-1, 2 threads" 2.04789
"cpu/compact: tilejit cooperative, 1 thread" 0.791694
"cpu/compact: tilejit cooperative, 2 threads" 1.134
"cpu/copy: tilejit width-1, 1 thread" 1.05415
"cpu/copy: tilejit width-1, 2 threads" 1.19644
"cpu/copy: tilejit cooperative, 1 thread" 0.847428
"cpu/copy: tilejit cooperative, 2 threads" 0.956899
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
"ptx/store_doubled_thread_indices" 16.5291
"ptx/multiply_elements" 13.1767
"ptx/row_products" 10.0115
"ptx/replace_rows" 11.7883
"ptx/histogram" 12.4454
"ptx/compact_values" 7.50778
"ptx/large" 1.74017
"ptx-first/store_doubled_thread_indices" 6.74071
"ptx-first/multiply_elements" 7.50087
"ptx-first/row_products" 5.80313
"ptx-first/replace_rows" 6.60852
"ptx-first/histogram" 6.70245
"ptx-first/compact_values" 5.42877
"ptx-first/large" 1.6278
"disk/store_doubled_thread_indices" 2.77018
"disk/store_doubled_thread_indices (CPU)" 7.42304
"disk/multiply_elements" 2.52117
"disk/multiply_elements (CPU)" 8.01222
"disk/row_products" 2.98093
"disk/row_products (CPU)" 7.27224
"disk/replace_rows" 2.69177
"disk/replace_rows (CPU)" 9.08695
"disk/histogram" 2.70484
"disk/histogram (CPU)" 8.0811
"disk/compact_values" 3.0369
"disk/compact_values (CPU)" 9.70991
"disk/large" 5.52203
"disk/large (CPU)" 34.7745
"source/store_doubled_thread_indices" 16.7076
"source-first/store_doubled_thread_indices" 8.05507
"source/multiply_elements" 13.0952
"source-first/multiply_elements" 7.7217
"source/row_products" 9.88367
"source-first/row_products" 6.27105
"source/replace_rows" 11.3351
"source-first/replace_rows" 6.73603
"source/histogram" 12.5336
"source-first/histogram" 6.93987
"source/compact_values" 7.43648
"source-first/compact_values" 5.16717
"source/large" 1.74111
"source-first/large" 1.5845
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
