# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-02-2242.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-02-2242.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-02-2242.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 61.9767
64 24.501
EOD
$t0_1 << EOD
64 24.6965
EOD
$t0_2 << EOD
4 28.2414
64 41.7906
EOD
$t0_3 << EOD
64 43.3459
EOD
$t0_4 << EOD
4 0.814538
EOD
$t0_5 << EOD
4 1.47226
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
4 6.61294
64 6.41997
EOD
$t1_1 << EOD
64 5.95475
EOD
$t1_2 << EOD
4 5.95044
64 7.473
EOD
$t1_3 << EOD
64 10.5659
EOD
$t1_4 << EOD
4 3.04197
EOD
$t1_5 << EOD
4 4.5975
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
4 8.29264
64 8.31032
EOD
$t2_1 << EOD
64 9.41488
EOD
$t2_2 << EOD
4 7.5181
64 7.47916
EOD
$t2_3 << EOD
64 14.1387
EOD
$t2_4 << EOD
4 0.0760977
EOD
$t2_5 << EOD
4 0.16888
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
4 31.6165
64 23.4833
EOD
$t3_1 << EOD
64 24.7124
EOD
$t3_2 << EOD
4 34.8273
64 24.1217
EOD
$t3_3 << EOD
64 30.9751
EOD
$t3_4 << EOD
4 0.87645
EOD
$t3_5 << EOD
4 1.71063
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
"cpu/sum: tilejit width-1, 1 thread" 1.00798
"cpu/sum: tilejit width-1, 2 threads" 1.03722
"cpu/sum: tilejit cooperative, 1 thread" 0.0131427
"cpu/sum: tilejit cooperative, 2 threads" 0.0521313
"cpu/histogram: tilejit width-1, 1 thread" 0.927535
"cpu/histogram: tilejit width-1, 2 threads" 1.41388
"cpu/histogram: tilejit cooperative, 1 thread" 0.460002
"cpu/histogram: tilejit cooperative, 2 threads" 0.772632
"cpu/compact: tilejit width-1, 1 thread" 1.13291
"cpu/compact: tilejit width-1, 2 threads" 1.89041
"cpu/compact: tilejit cooperative, 1 thread" 0.00917653
"cpu/compact: tilejit cooperative, 2 threads" 0.0224632
"cpu/copy: tilejit width-1, 1 thread" 1.05234
"cpu/copy: tilejit width-1, 2 threads" 1.28412
"cpu/copy: tilejit cooperative, 1 thread" 0.0277213
"cpu/copy: tilejit cooperative, 2 threads" 0.0491174
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
"ptx/store_doubled_thread_indices" 20.232
"ptx/multiply_elements" 13.3908
"ptx/row_products" 9.50596
"ptx/replace_rows" 12.7177
"ptx/histogram" 14.3458
"ptx/compact_values" 7.64889
"ptx/large" 1.65715
"ptx-first/store_doubled_thread_indices" 10.2312
"ptx-first/multiply_elements" 7.02052
"ptx-first/row_products" 5.54971
"ptx-first/replace_rows" 6.37237
"ptx-first/histogram" 5.15652
"ptx-first/compact_values" 4.15926
"ptx-first/large" 1.76824
"disk/store_doubled_thread_indices" 2.38829
"disk/store_doubled_thread_indices (CPU)" 9.22608
"disk/multiply_elements" 3.56861
"disk/multiply_elements (CPU)" 8.9382
"disk/row_products" 2.39853
"disk/row_products (CPU)" 6.88664
"disk/replace_rows" 2.86694
"disk/replace_rows (CPU)" 11.2873
"disk/histogram" 2.90104
"disk/histogram (CPU)" 6.1319
"disk/compact_values" 2.81984
"disk/compact_values (CPU)" 11.9156
"disk/large" 5.21286
"disk/large (CPU)" 32.0333
"source/store_doubled_thread_indices" 18.6788
"source-first/store_doubled_thread_indices" 9.82242
"source/multiply_elements" 15.6784
"source-first/multiply_elements" 9.224
"source/row_products" 8.60734
"source-first/row_products" 3.95658
"source/replace_rows" 8.89904
"source-first/replace_rows" 7.10334
"source/histogram" 13.4884
"source-first/histogram" 6.45245
"source/compact_values" 7.72005
"source-first/compact_values" 4.8344
"source/large" 1.61211
"source-first/large" 1.40849
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
