# Charts of the tilejit-bench run in /work/main/bench/results/cpu.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh /work/main/bench/results/cpu.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" /work/main/bench/results/cpu.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 88.9755
64 17.6078
EOD
$t0_1 << EOD
64 2.99819
EOD
$t0_2 << EOD
4 58.929
64 17.435
EOD
$t0_3 << EOD
64 5.10012
EOD
$t0_4 << EOD
4 0.114502
EOD
$t0_5 << EOD
4 0.222022
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
4 5.94355
64 5.85874
EOD
$t1_1 << EOD
64 1.71601
EOD
$t1_2 << EOD
4 1.31399
64 8.37395
EOD
$t1_3 << EOD
64 3.12167
EOD
$t1_4 << EOD
4 0.234571
EOD
$t1_5 << EOD
4 0.179889
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
4 7.33165
64 6.60308
EOD
$t2_1 << EOD
64 0.553497
EOD
$t2_2 << EOD
4 6.46326
64 5.07205
EOD
$t2_3 << EOD
64 0.954057
EOD
$t2_4 << EOD
4 0.0336738
EOD
$t2_5 << EOD
4 0.0678548
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
4 94.4482
64 17.4751
EOD
$t3_1 << EOD
64 8.44512
EOD
$t3_2 << EOD
4 71.0387
64 16.6183
EOD
$t3_3 << EOD
64 15.6294
EOD
$t3_4 << EOD
4 0.833409
EOD
$t3_5 << EOD
4 1.58903
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
"cpu/sum: tilejit width-1, 1 thread" 0.170276
"cpu/sum: tilejit width-1, 2 threads" 0.292522
"cpu/sum: tilejit cooperative, 1 thread" 0.00128689
"cpu/sum: tilejit cooperative, 2 threads" 0.00376761
"cpu/histogram: tilejit width-1, 1 thread" 0.292898
"cpu/histogram: tilejit width-1, 2 threads" 0.372784
"cpu/histogram: tilejit cooperative, 1 thread" 0.0394664
"cpu/histogram: tilejit cooperative, 2 threads" 0.136903
"cpu/compact: tilejit width-1, 1 thread" 0.0838241
"cpu/compact: tilejit width-1, 2 threads" 0.188101
"cpu/compact: tilejit cooperative, 1 thread" 0.00459294
"cpu/compact: tilejit cooperative, 2 threads" 0.0104986
"cpu/copy: tilejit width-1, 1 thread" 0.483265
"cpu/copy: tilejit width-1, 2 threads" 0.940493
"cpu/copy: tilejit cooperative, 1 thread" 0.00882398
"cpu/copy: tilejit cooperative, 2 threads" 0.0223685
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
"ptx/store_doubled_thread_indices" 5.73532
"ptx/multiply_elements" 4.10668
"ptx/row_products" 1.64697
"ptx/replace_rows" 2.96168
"ptx/histogram" 3.84351
"ptx/compact_values" 2.08518
"ptx/large" 0.510931
"ptx-first/store_doubled_thread_indices" 4.00157
"ptx-first/multiply_elements" 3.37005
"ptx-first/row_products" 1.79607
"ptx-first/replace_rows" 2.72393
"ptx-first/histogram" 3.52621
"ptx-first/compact_values" 2.04385
"ptx-first/large" 0.503796
"disk/store_doubled_thread_indices" 3.95537
"disk/store_doubled_thread_indices (CPU)" 7.35867
"disk/multiply_elements" 4.79488
"disk/multiply_elements (CPU)" 6.18233
"disk/row_products" 6.98098
"disk/row_products (CPU)" 6.76905
"disk/replace_rows" 5.67783
"disk/replace_rows (CPU)" 7.25251
"disk/histogram" 4.89713
"disk/histogram (CPU)" 6.57607
"disk/compact_values" 7.45013
"disk/compact_values (CPU)" 9.04676
"disk/large" 13.4575
"disk/large (CPU)" 25.9316
"source/store_doubled_thread_indices" 4.78018
"source-first/store_doubled_thread_indices" 3.77356
"source/multiply_elements" 3.69282
"source-first/multiply_elements" 3.34455
"source/row_products" 1.5416
"source-first/row_products" 1.65842
"source/replace_rows" 2.24374
"source-first/replace_rows" 2.65926
"source/histogram" 3.54208
"source-first/histogram" 2.61375
"source/compact_values" 2.07145
"source-first/compact_values" 2.08205
"source/large" 0.46955
"source-first/large" 0.484016
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
